import type { Logger } from "pino";

/** How long a shutdown after an uncaught exception may take before the process just exits. */
const CRASH_SHUTDOWN_MS = 10_000;

/**
 * Process-wide safety nets for an entry point. A promise rejection nobody handled is a bug, but
 * one request's (or one background task's): it is logged with its stack at error level and the
 * process keeps serving. An uncaught exception may have left any state half-changed, so it is
 * logged, `shutdown` gets a bounded chance to close listeners and the database, and the process
 * exits with status 1 for its supervisor to restart it.
 */
export function installProcessGuards(log: Logger, shutdown: () => Promise<void>): void {
  process.on("unhandledRejection", (reason) => {
    log.error({ err: reason }, "unhandled promise rejection (the process keeps serving)");
  });
  process.on("uncaughtException", (error) => {
    log.fatal({ err: error }, "uncaught exception: shutting down");
    setTimeout(() => process.exit(1), CRASH_SHUTDOWN_MS).unref();
    shutdown().finally(() => process.exit(1));
  });
}
