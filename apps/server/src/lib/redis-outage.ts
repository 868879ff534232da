import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";

/**
 * Redis is optional infrastructure: while it is away the server keeps serving with `fallback`
 * (what still works) and ioredis keeps reconnecting. One warning per outage, when the first of
 * `clients` loses its connection, and one line when they are all back; not one per reconnect
 * attempt or per request. Call `stop()` before quitting the clients so closing is no outage.
 */
export function reportRedisOutages(
  clients: Redis[],
  log: FastifyBaseLogger,
  feature: string,
  fallback: string,
): { stop(): void } {
  let down = false;
  let stopped = false;
  const lost = (error?: Error) => {
    if (down || stopped) return;
    down = true;
    log.warn(
      { err: error },
      `Redis is unreachable: ${feature} ${fallback} until it returns (${error?.message ?? "connection closed"})`,
    );
  };
  const ready = () => {
    if (!down || stopped || clients.some((client) => client.status !== "ready")) return;
    down = false;
    log.info(`Redis is reachable again: ${feature} spans every instance again`);
  };
  for (const client of clients) {
    client.on("error", lost);
    client.on("close", () => lost());
    client.on("ready", ready);
  }
  return {
    stop() {
      stopped = true;
    },
  };
}

/** Socket.IO's Redis adapter publishes without waiting for the answer, after delivering to this instance's
 * clients; a publish Redis cannot take would be an unhandled rejection. The fan-out to other
 * instances is lost then (the outage is reported once), never the process. */
export function withFailedPublishesDropped(pub: Redis): Redis {
  const publish = pub.publish.bind(pub) as (...args: unknown[]) => Promise<number>;
  pub.publish = ((...args: unknown[]) => {
    const sent = publish(...args);
    sent.catch(() => {});
    return sent;
  }) as Redis["publish"];
  return pub;
}

/** A subscriber connection: ioredis subscribes again by itself after every reconnect, and drops
 * those promises; a connection closed before Redis answered them (the server stopping just as
 * Redis came back) rejected them with nobody listening — an unhandled rejection, which ends a
 * Node process. Every (p)subscribe promise gets a handler here; a caller that awaits one still
 * sees its failure. */
export function withResubscribesHandled(sub: Redis): Redis {
  for (const method of ["subscribe", "psubscribe"] as const) {
    const original = sub[method].bind(sub) as (...args: unknown[]) => Promise<unknown>;
    sub[method] = ((...args: unknown[]) => {
      const sent = original(...args);
      sent.catch(() => {});
      return sent;
    }) as Redis[typeof method];
  }
  return sub;
}

/** QUIT when connected (what was sent is answered first); otherwise just drop the connection:
 * a QUIT queued for a Redis that is away would wait for it forever. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status !== "ready") return client.disconnect();
  await client.quit().catch(() => client.disconnect());
}

/** Resolves once `client` is connected, or after `ms` without it: start-up waits briefly for a
 * Redis that is there (so shared state is shared from the first request) and not for one that
 * is away. */
export function readyOrAfter(client: Redis, ms: number): Promise<void> {
  if (client.status === "ready") return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once("ready", done);
  });
}
