import type { FastifyBaseLogger } from "fastify";
import type { DealsService } from "./service.ts";

/** How often each instance moves deals that are due (start, end, activation, stock release). */
export const DEAL_SCHEDULER_MS = 5_000;

/** The per-instance timer of deal status moves. Every move is a conditional UPDATE, so many
 * instances running it at once move, credit or refund nothing twice; a pass still running when
 * the next is due is not doubled up. */
export function createDealScheduler(
  deals: Pick<DealsService, "tick">,
  log: FastifyBaseLogger,
  everyMs = DEAL_SCHEDULER_MS,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;

  const pass = () => {
    if (running) return running;
    running = deals
      .tick()
      .catch((error: unknown) => log.warn({ err: error }, "deal scheduler pass failed"))
      .finally(() => {
        running = null;
      });
    return running;
  };

  return {
    start() {
      timer = setInterval(pass, everyMs);
      timer.unref();
    },
    /** Stops the timer and waits for a pass in progress. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
