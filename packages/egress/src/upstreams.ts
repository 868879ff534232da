import { createHash } from "node:crypto";
import { countryCodeProblem } from "@bytetoll/contracts";

/** What every exit may say about itself: where it leaves (`?country=us&country=de`, upper-case
 * codes; absent: it does not say, so it serves no request that names a country unless it is a
 * template carrying `{country}`). */
interface ExitPlace {
  countries?: readonly string[];
  /** Share of the pool's new connections and sessions, 1-100 (absent: 1). */
  weight?: number;
  /** What the exit's bytes are booked under (absent: an environment exit, booked by its id at no
   * cost). */
  ledger?: ExitLedger;
}

/** How an exit's traffic is booked for the margin report (upstream_usage). */
export interface ExitLedger {
  /** The console exit's id, or an environment exit's id. */
  key: string;
  name: string;
  /** What one GB through it costs now, in micro-dollars. */
  costPerGbMicros: number;
}

/** Where a proxy type's traffic leaves: straight out, or through another proxy. */
export type UpstreamSpec =
  | ({ kind: "direct"; id: string } & ExitPlace)
  | ({
      kind: "http" | "https" | "socks5";
      id: string;
      host: string;
      port: number;
      username: string | undefined;
      password: string | undefined;
      /** https only: PEM certificates trusted for the upstream's TLS besides Node's bundled
       * roots (UPSTREAM_CA_FILE). The host name is verified either way. */
      ca?: string;
      /** The username holds `{country}`, `{city}`, `{session}` or `{sesstime}`: it is filled in
       * from each request (`fillTemplate`). */
      template?: boolean;
    } & ExitPlace);

const defaultPorts = { http: 80, https: 443, socks5: 1080 } as const;

const PLACEHOLDER = /\{(country|city|session|sesstime)\}/;

/** `?country=us&country=de` after an upstream: the countries it exits in. */
function countriesOf(text: string, query: URLSearchParams): string[] | undefined {
  for (const name of query.keys()) {
    if (name !== "country") throw new Error(`"${text}": unknown upstream parameter "${name}" (only country)`);
  }
  const codes = query.getAll("country");
  if (codes.length === 0) return undefined;
  return codes.map((code) => {
    const problem = countryCodeProblem(code);
    if (problem) throw new Error(`"${text}": ${problem}`);
    return code.toUpperCase();
  });
}

export function parseUpstream(text: string, trust: { ca?: string } = {}): UpstreamSpec {
  const direct = /^direct(?:\?(.*))?$/.exec(text);
  if (direct) {
    const countries = countriesOf(text, new URLSearchParams(direct[1] ?? ""));
    return countries
      ? { kind: "direct", id: `direct?${countryQuery(countries)}`, countries }
      : { kind: "direct", id: "direct" };
  }
  let url: URL;
  try {
    // Braces of a username template are not URL characters: escaped, they parse as any username.
    url = new URL(text.replace(/[{}]/g, encodeURIComponent));
  } catch {
    throw new Error(`"${text}" is neither "direct" nor a proxy URL`);
  }
  const kind = url.protocol.slice(0, -1);
  if (kind !== "http" && kind !== "https" && kind !== "socks5") {
    throw new Error(`"${url.protocol}" upstreams are not supported (use http, https or socks5)`);
  }
  const countries = countriesOf(text, url.searchParams);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port === "" ? defaultPorts[kind] : Number(url.port);
  const username = url.username === "" ? undefined : decodeURIComponent(url.username);
  const template = username !== undefined && PLACEHOLDER.test(username);
  return {
    kind,
    // The id never carries the credentials: it appears in logs and connection-pool keys. It names
    // the countries, so two exits of one host that differ only by them are told apart.
    id: `${kind}://${url.host}${countries ? `?${countryQuery(countries)}` : ""}${template ? `#${username}` : ""}`,
    host,
    port,
    username,
    password: url.password === "" ? undefined : decodeURIComponent(url.password),
    ...(kind === "https" && trust.ca !== undefined ? { ca: trust.ca } : {}),
    ...(countries ? { countries } : {}),
    ...(template ? { template } : {}),
  };
}

function countryQuery(countries: readonly string[]): string {
  return countries.map((code) => `country=${code.toLowerCase()}`).join("&");
}

/** What a request asks of its exit. */
export interface ExitChoice {
  country: string | undefined;
  city: string | undefined;
  /** The customer's session id made unique per account (`accountSession`). */
  session: string | undefined;
  sessionMinutes: number;
}

/** Whether `spec` can take a request for `country`: one that names its countries serves only
 * those; a template that carries `{country}` serves any; any other exit serves only requests that
 * name none, since it does not say where it leaves. */
export function servesCountry(spec: UpstreamSpec, country: string | undefined): boolean {
  if (country === undefined) return true;
  if (spec.countries) return spec.countries.includes(country);
  return spec.kind !== "direct" && spec.template === true && spec.username?.includes("{country}") === true;
}

/** A customer's session id as an upstream sees it: unique per account, so two customers who
 * choose the same id never share an exit, and the account id is not disclosed. */
export function accountSession(accountId: string, sessionId: string): string {
  return createHash("sha256").update(`${accountId}:${sessionId}`).digest("hex").slice(0, 16);
}

/** The upstream with its username template filled in from the request: `-word-{placeholder}`,
 * and a bare `-{placeholder}`, are left out whole when the request has no value for it
 * (`any-{country}-{session}` without a session is `any-us`). Any other spec is returned as it is. */
export function fillTemplate(spec: UpstreamSpec, choice: ExitChoice): UpstreamSpec {
  if (spec.kind === "direct" || !spec.template || spec.username === undefined) return spec;
  const values: Record<string, string | undefined> = {
    country: choice.country?.toLowerCase(),
    city: choice.city,
    session: choice.session,
    sesstime: choice.session === undefined ? undefined : String(choice.sessionMinutes),
  };
  const username = spec.username
    .replace(/-([A-Za-z0-9_]+)-\{(country|city|session|sesstime)\}/g, (_, word: string, name: string) =>
      values[name] === undefined ? "" : `-${word}-${values[name]}`,
    )
    .replace(/-\{(country|city|session|sesstime)\}/g, (_, name: string) =>
      values[name] === undefined ? "" : `-${values[name]}`,
    )
    .replace(/\{(country|city|session|sesstime)\}/g, (_, name: string) => values[name] ?? "");
  return { ...spec, username };
}

/** FNV-1a: a stable, fast hash so one session id always lands on the same upstream. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
