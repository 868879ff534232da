import path from "node:path";
import { DataDirInUseError, openDatabase } from "@bytetoll/db";
import type { GatewayHost } from "@bytetoll/egress";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { createEmbeddedGateway, planEmbeddedGateway } from "./embedded-gateway.ts";
import { announceStart, createProcessLogger } from "./lib/log-output.ts";
import { installProcessGuards } from "./lib/process-guards.ts";

/** Replaced once there is something to close; until then a crash has nothing to shut down. */
let shutdown = async () => {};

const LOOPBACK_HOSTS = new Set(["localhost", "::1"]);
const isLoopbackHost = (host: string) => LOOPBACK_HOSTS.has(host) || host.startsWith("127.");

/** Development mode serves login links (/dev/outbox) and free payments (/dev/orders/{id}/pay) to
 * whoever reaches it; said loudly when it listens beyond this machine. */
function warnWhenDevelopmentIsExposed(config: Config, hosts: string[]) {
  const exposed = hosts.filter((host) => !isLoopbackHost(host));
  if (config.isProduction || exposed.length === 0) return;
  const line = "!".repeat(78);
  console.warn(
    [
      line,
      `WARNING: development mode is listening on ${exposed.join(" and ")}, reachable from other machines.`,
      "Anyone who reaches it can read login links at /dev/outbox and get data for free at",
      "/dev/orders/{id}/pay. Set NODE_ENV=production for a real deployment, or unset HOST",
      "(and GATEWAY_BIND) to listen on 127.0.0.1 only.",
      line,
    ].join("\n"),
  );
}

/**
 * `npm start`'s server: parse config, open the database, listen, and stop cleanly on a signal.
 * `gatewayHost` is the gateway app, handed in by the process's assembly (apps/launcher), which
 * runs the gateway beside the API unless GATEWAY_DISABLED says otherwise.
 */
export async function runServer(gatewayHost: GatewayHost): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The logger follows the parsed configuration (LOG_FORMAT, LOG_LEVEL); before it exists, a
  // configuration error is printed on its own.
  const { log, format: logFormat } = createProcessLogger({ LOG_FORMAT: config.LOG_FORMAT }, "server");
  installProcessGuards(log, () => shutdown());
  log.level = config.LOG_LEVEL;

  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : path.join(config.DATA_DIR, "pglite"),
  }).catch((error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    console.error(
      `DATA_DIR ${config.DATA_DIR} is in use by process ${error.pid} (another server?): the embedded database allows one process per data directory. Stop that process, or give this one its own DATA_DIR (or use PostgreSQL: DATABASE_URL).`,
    );
    process.exit(1);
  });
  const gatewayPlan = planEmbeddedGateway(config);
  const app = await buildApp({
    config,
    database,
    logger: log,
    inProcessGatewayHost: gatewayPlan?.dialHost,
    gatewayHost,
  });
  const gateway = gatewayPlan ? createEmbeddedGateway(gatewayPlan, app, database) : null;

  // API first (no new work), then the gateway: it lets tunnels finish and flushes their usage.
  // Started once; a second signal (or a crash meanwhile) waits for the same shutdown.
  let closing: Promise<void> | undefined;
  shutdown = () => {
    closing ??= (async () => {
      await app.close();
      await gateway?.close();
      await database.close();
    })();
    return closing;
  };
  const stop = async (signal: string) => {
    app.log.info({ signal }, "shutting down");
    try {
      await shutdown();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));

  await listenOrExplain("PORT", config.PORT, () => app.listen({ port: config.PORT, host: config.HOST }));
  if (gateway) {
    const socks =
      config.gateway.socksPort === null ? "" : ` or GATEWAY_SOCKS_PORT=${config.gateway.socksPort}`;
    const ports = `GATEWAY_HTTP_PORT=${config.GATEWAY_HTTP_PORT}, GATEWAY_HTTPS_PORT=${config.GATEWAY_HTTPS_PORT}${socks}`;
    await listenOrExplain(ports, null, () => gateway.listen());
  }
  warnWhenDevelopmentIsExposed(config, [config.HOST, ...(gatewayPlan ? [gatewayPlan.config.host] : [])]);
  const outbox = config.isProduction ? null : `${config.APP_URL}/dev/outbox`;
  announceStart(log, logFormat, {
    appUrl: config.APP_URL,
    docsUrl: config.DOCS_URL,
    gateway: gateway
      ? {
          host: config.GATEWAY_HOST,
          httpPort: gateway.httpPort,
          httpsPort: gateway.httpsPort,
          socksPort: gateway.socksPort,
        }
      : undefined,
    outbox: app.mailer.kind === "outbox" ? outbox : undefined,
  });
}

/** A taken port is the most common first-start problem: say which setting to change. */
async function listenOrExplain(setting: string, port: number | null, listen: () => Promise<unknown>) {
  try {
    await listen();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    const taken = (error as { port?: number }).port ?? port;
    const variable = port === null ? setting : `${setting}=${port}`;
    console.error(`Port ${taken} is already in use: stop what uses it or choose another port (${variable}).`);
    process.exit(1);
  }
}
