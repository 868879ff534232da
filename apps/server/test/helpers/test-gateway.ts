import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Database } from "@bytetoll/db";
import { type GatewayConfig, loadGatewayConfig } from "@bytetoll/egress";
import { createGateway, type Gateway } from "@bytetoll/gateway";
import { pino } from "pino";

/**
 * A real gateway on loopback ports chosen by the OS, allowed to reach test origins on 127.0.0.1,
 * without its metrics listener; `overrides` change any of its settings.
 */
export async function startTestGateway(
  database: Database,
  overrides: Partial<GatewayConfig> = {},
): Promise<Gateway> {
  const config = loadGatewayConfig({
    GATEWAY_BIND: "127.0.0.1",
    GATEWAY_HTTP_PORT: "0",
    GATEWAY_SOCKS_PORT: "0",
    GATEWAY_HTTPS_PORT: "0",
    GATEWAY_METRICS_PORT: "off",
    EGRESS_ALLOW: "127.0.0.1/32",
  });
  const gateway = createGateway({
    database,
    config: { ...config, dataDir: undefined, shutdownGraceMs: 200, ...overrides },
    logger: pino({ level: "silent" }),
  });
  await gateway.listen();
  return gateway;
}

const run = promisify(execFile);

/** curl through the gateway's HTTP proxy port as `username`; the status it got (000: none). */
export async function curlStatus(
  port: number,
  username: string,
  password: string,
  url: string,
): Promise<number> {
  return (await curlAnswer(port, username, password, url)).status;
}

/** curl through the gateway's HTTP proxy port as `username`: the status it got (000: none), and
 * the gateway's refusal code when the gateway itself refused (its X-Bytetoll-Error header), so a
 * test can tell the gateway's 403 from a site's. */
export async function curlAnswer(
  port: number,
  username: string,
  password: string,
  url: string,
): Promise<{ status: number; refusal: string | null }> {
  const { stdout } = await run("curl", [
    "-s",
    "-o",
    "/dev/null",
    "-w",
    "%{http_code} %header{x-bytetoll-error}",
    "--max-time",
    "15",
    "-x",
    `http://${username}:${password}@127.0.0.1:${port}`,
    url,
  ]);
  const [status = "0", refusal = ""] = stdout.trim().split(" ");
  return { status: Number(status), refusal: refusal || null };
}
