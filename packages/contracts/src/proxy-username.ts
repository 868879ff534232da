/**
 * The proxy username grammar, defined once for the gateway, the dashboard, the SDKs and the docs:
 * `{username}[-country-CC][-city-NAME][-session-ID][-sesstime-MINUTES][-routing-smart]`, options in
 * any order. A base username never holds a "-" (generated ones are letters and digits), so every
 * "-" starts an option; an unknown or malformed option is refused, never ignored.
 */

/** ISO 3166-1 alpha-2: every officially assigned code. */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS " +
    "BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE " +
    "EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM " +
    "HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC " +
    "LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA " +
    "NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
    "SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO " +
    "TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/** Length of the session ids the dashboard and SDKs generate; customers may choose 1–32. */
export const SESSION_ID_LENGTH = 8;
export const SESSION_ID_MAX_LENGTH = 32;
export const SESSION_ID_PATTERN = /^[A-Za-z0-9]{1,32}$/;
export const CITY_PATTERN = /^[a-z_]{2,40}$/;
export const SESSION_MINUTES_MIN = 1;
export const SESSION_MINUTES_MAX = 1440;
/** How long a sticky session keeps its exit after its last use when `-sesstime` is not given. */
export const SESSION_MINUTES_DEFAULT = 10;

export const SESSION_SUFFIX_PREFIX = "-session-";
export const ROUTING_SMART_SUFFIX = "-routing-smart";

export interface ProxyUsernameOptions {
  /** Upper-case ISO 3166-1 alpha-2 code. */
  country?: string | undefined;
  city?: string | undefined;
  sessionId?: string | undefined;
  /** Minutes a sticky session keeps its exit after its last use. */
  sessionMinutes?: number | undefined;
  smart?: boolean | undefined;
}

export interface ParsedProxyUsername {
  /** The credential's own username, options removed. */
  base: string;
  country: string | undefined;
  city: string | undefined;
  sessionId: string | undefined;
  /** SESSION_MINUTES_DEFAULT unless `-sesstime` says otherwise. */
  sessionMinutes: number;
  smart: boolean;
}

export type ProxyUsernameResult = { ok: true; value: ParsedProxyUsername } | { ok: false; message: string };

/** Why a country code is refused, or null when it is a real one (any case). */
export function countryCodeProblem(code: string): string | null {
  return COUNTRY_CODES.has(code.toUpperCase()) ? null : `Bad country code '${code}'`;
}

/** Why a session lifetime is refused (the gateway's own 407 message), or null when it is good. */
export function sessionMinutesProblem(text: string): string | null {
  const minutes = /^\d{1,4}$/.test(text) ? Number(text) : Number.NaN;
  return minutes >= SESSION_MINUTES_MIN && minutes <= SESSION_MINUTES_MAX
    ? null
    : `Bad session lifetime '${text}': minutes from ${SESSION_MINUTES_MIN} to ${SESSION_MINUTES_MAX}`;
}

/** Each option's check: a message naming the bad value, or null. */
const OPTION_CHECKS: Record<string, (value: string) => string | null> = {
  country: countryCodeProblem,
  city: (value) => (CITY_PATTERN.test(value) ? null : `Bad city '${value}': 2–40 of a–z and _`),
  session: (value) =>
    SESSION_ID_PATTERN.test(value) ? null : `Bad session id '${value}': 1–32 letters or digits`,
  sesstime: sessionMinutesProblem,
  routing: (value) => (value === "smart" ? null : `Bad routing '${value}': only 'smart'`),
};

/** Splits a proxy username into its base and options; a message names the first bad option. */
export function parseProxyUsername(username: string): ProxyUsernameResult {
  const [base = "", ...pieces] = username.split("-");
  if (base === "") return { ok: false, message: "The username is empty before its options" };
  const seen = new Map<string, string>();
  for (let i = 0; i < pieces.length; i += 2) {
    const name = pieces[i] as string;
    const value = pieces[i + 1];
    const check = OPTION_CHECKS[name];
    if (!check) return { ok: false, message: `Unknown username option '${name}'` };
    if (value === undefined || value === "")
      return { ok: false, message: `Username option '${name}' needs a value` };
    if (seen.has(name)) return { ok: false, message: `Username option '${name}' is given twice` };
    const problem = check(value);
    if (problem) return { ok: false, message: problem };
    seen.set(name, value);
  }
  const sesstime = seen.get("sesstime");
  return {
    ok: true,
    value: {
      base,
      country: seen.get("country")?.toUpperCase(),
      city: seen.get("city"),
      sessionId: seen.get("session"),
      sessionMinutes: sesstime === undefined ? SESSION_MINUTES_DEFAULT : Number(sesstime),
      smart: seen.has("routing"),
    },
  };
}

/** The username that asks for `options`, in the documented order; throws on a value the gateway
 * would refuse, so a generated username always works. */
export function formatProxyUsername(base: string, options: ProxyUsernameOptions = {}): string {
  let username = base;
  const add = (name: string, value: string) => {
    const problem = (OPTION_CHECKS[name] as (value: string) => string | null)(value);
    if (problem) throw new Error(problem);
    username += `-${name}-${value}`;
  };
  if (options.country) add("country", options.country.toLowerCase());
  if (options.city) add("city", options.city);
  if (options.sessionId) add("session", options.sessionId);
  if (
    options.sessionId &&
    options.sessionMinutes !== undefined &&
    options.sessionMinutes !== SESSION_MINUTES_DEFAULT
  )
    add("sesstime", String(options.sessionMinutes));
  if (options.smart) username += ROUTING_SMART_SUFFIX;
  return username;
}
