import type { ProbeObservation, Verdict } from "@bytetoll/contracts";
import type { ProbeResponse, ProbeScheme } from "@bytetoll/egress";

/** Statuses a site answers a client it refuses with (auth wall, proxy auth, rate limit, outage page). */
const BLOCK_STATUSES = new Set([401, 403, 407, 429, 503]);
/** A datacenter page below this share of the mobile page's size (and the mobile page at least
 * MIN_COMPARABLE_BYTES) is a stub or an interstitial, not the site. */
const SMALL_BODY_RATIO = 0.3;
const MIN_COMPARABLE_BYTES = 2_048;
const BLOCK_PAGE_PATH = /(block|denied|captcha|challenge|verify|login|log-in|signin|sign-in|auth)/i;

export interface SchemeProbe {
  scheme: ProbeScheme;
  url: string;
  dc: ProbeResponse;
  mobile: ProbeResponse;
}

export interface ProbeVerdict {
  verdict: Verdict;
  /** The signal that decided it (for eligible/unknown: why). */
  signal: string;
  observations: ProbeObservation[];
}

/** Names the refusal a response shows, or null when it looks like the site itself. */
export function blockSignal(response: ProbeResponse, host: string): string | null {
  if (response.status === null) return null;
  const status = response.status;
  const body = response.body.toString("latin1");
  const server = response.headers.server ?? "";
  if ((response.headers["cf-mitigated"] ?? "").toLowerCase() === "challenge") return "cloudflare challenge";
  if (
    /cloudflare/i.test(server) &&
    (status === 403 || status === 503) &&
    /__cf_chl|\/cdn-cgi\/challenge-platform/.test(body)
  )
    return "cloudflare challenge page";
  if (body.includes("challenges.cloudflare.com")) return "cloudflare turnstile in page";
  if (body.includes("_Incapsula_Resource")) return "incapsula block page";
  if (/Access Denied/.test(body) && (/akamai/i.test(server) || /Reference #[0-9a-f.]+/i.test(body)))
    return "akamai access denied";
  if (/captcha/i.test(body)) return `captcha in page (status ${status})`;
  if (BLOCK_STATUSES.has(status)) return `status ${status}`;
  const redirect = status >= 300 && status < 400 ? redirectTarget(response, host) : null;
  if (redirect && redirect.hostname !== host && BLOCK_PAGE_PATH.test(redirect.pathname))
    return `redirect to ${redirect.hostname}${redirect.pathname}`;
  return null;
}

function redirectTarget(response: ProbeResponse, host: string): URL | null {
  try {
    return new URL(response.headers.location ?? "", `http://${host}/`);
  } catch {
    return null;
  }
}

type SchemeOutcome = { kind: "blocked" | "clean" | "inconclusive"; signal: string };

/** What one scheme's pair of fetches says about datacenter exits. A refusal counts only when the
 * mobile fetch of the same page was not refused too: a site that turns everyone away says
 * nothing about datacenter addresses. */
function judgeScheme({ dc, mobile }: SchemeProbe, host: string): SchemeOutcome {
  const mobileSignal = blockSignal(mobile, host);
  if (mobile.error !== null) return { kind: "inconclusive", signal: `mobile fetch failed (${mobile.error})` };
  if (mobileSignal) return { kind: "inconclusive", signal: `refused through mobile too (${mobileSignal})` };
  if (dc.error !== null) {
    const kind = dc.error.split(":")[0];
    if (kind === "exit" || kind === "forbidden")
      return { kind: "inconclusive", signal: `datacenter fetch failed (${dc.error})` };
    return { kind: "blocked", signal: `${kind} failure through datacenter only` };
  }
  const dcSignal = blockSignal(dc, host);
  if (dcSignal) return { kind: "blocked", signal: dcSignal };
  if (
    dc.status !== null &&
    dc.status < 300 &&
    mobile.bytes >= MIN_COMPARABLE_BYTES &&
    dc.bytes < mobile.bytes * SMALL_BODY_RATIO
  )
    return {
      kind: "blocked",
      signal: `page much smaller than through mobile (${dc.bytes} vs ${mobile.bytes} bytes)`,
    };
  return { kind: "clean", signal: `served through datacenter like mobile (status ${dc.status})` };
}

function observe(
  at: string,
  url: string,
  pool: "dc" | "mobile",
  response: ProbeResponse,
  host: string,
): ProbeObservation {
  return {
    at,
    pool,
    url,
    status: response.status,
    bytes: response.bytes,
    signal: response.error === null ? blockSignal(response, host) : null,
    error: response.error,
  };
}

/** Blocked when any scheme shows a datacenter-only refusal; eligible when a scheme was served
 * alike through both pools and none refused; unknown when no scheme could be compared. */
export function judgeProbe(host: string, probes: SchemeProbe[], at = new Date().toISOString()): ProbeVerdict {
  const observations = probes.flatMap((probe) => [
    observe(at, probe.url, "dc", probe.dc, host),
    observe(at, probe.url, "mobile", probe.mobile, host),
  ]);
  const outcomes = probes.map((probe) => ({ url: probe.url, ...judgeScheme(probe, host) }));
  const blocked = outcomes.find((outcome) => outcome.kind === "blocked");
  if (blocked) return { verdict: "blocked", signal: `${blocked.signal} (${blocked.url})`, observations };
  const clean = outcomes.find((outcome) => outcome.kind === "clean");
  if (clean) return { verdict: "eligible", signal: `${clean.signal} (${clean.url})`, observations };
  const reason = outcomes.map((outcome) => `${outcome.url}: ${outcome.signal}`).join("; ");
  return { verdict: "unknown", signal: reason || "nothing probed", observations };
}
