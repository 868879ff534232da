import type { UpstreamTest } from "@bytetoll/contracts";
import type { GatewayConfig, GatewayHost } from "@bytetoll/egress";

/** Where the test asks for the exit's address by default: an echo service answering JSON with
 * the caller's address and country (`query`/`ip`, `countryCode`/`country`). */
export const DEFAULT_EXIT_TEST_URL = "http://ip-api.com/json/?fields=query,countryCode";

type Spec = GatewayConfig["mobileUpstreams"][number];

function readAnswer(body: Buffer): { ip: string | null; country: string | null } {
  try {
    const answer = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
    const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);
    return {
      ip: text(answer.query) ?? text(answer.ip),
      country: (text(answer.countryCode) ?? text(answer.country))?.toUpperCase() ?? null,
    };
  } catch {
    const plain = body.toString("utf8").trim();
    return { ip: /^[0-9a-f.:]{2,45}$/i.test(plain) ? plain : null, country: null };
  }
}

/**
 * One GET of `url` through this exit alone, as customer traffic would go (the egress guard vets
 * the address; nothing is metered or billed): the address and country the echo service saw, the
 * time to its answer, or what failed.
 */
export async function testExit(
  gatewayHost: GatewayHost,
  config: GatewayConfig,
  spec: Spec,
  url: string,
): Promise<UpstreamTest> {
  const target = new URL(url);
  const scheme = target.protocol === "https:" ? "https" : "http";
  const port = target.port === "" ? (scheme === "https" ? 443 : 80) : Number(target.port);
  const prober = gatewayHost.exitProbes({ ...config, mobileUpstreams: [spec] }, 10_000);
  const started = performance.now();
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const response = await prober.fetch("mobile", scheme, host, port, `${target.pathname}${target.search}`);
  const connectMs = Math.round(performance.now() - started);
  if (response.error !== null || response.status === null)
    return { ok: false, ip: null, country: null, connect_ms: null, error: response.error ?? "no answer" };
  if (response.status !== 200)
    return {
      ok: false,
      ip: null,
      country: null,
      connect_ms: connectMs,
      error: `the echo service answered ${response.status}`,
    };
  const { ip, country } = readAnswer(response.body);
  return {
    ok: ip !== null,
    ip,
    country,
    connect_ms: connectMs,
    error: ip === null ? "the answer held no address" : null,
  };
}
