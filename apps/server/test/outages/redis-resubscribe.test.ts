import net, { type AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { afterAll, beforeAll, expect, it } from "vitest";
import { withResubscribesHandled } from "../../src/lib/redis-outage.ts";

/**
 * A server stopping just as Redis came back: the realtime subscriber had reconnected and sent
 * its automatic SUBSCRIBE/PSUBSCRIBE, and closing it rejected those with "Connection is closed."
 * — promises ioredis drops, so the rejection was unhandled (it ended a clean CI run; in a server
 * process it is a crash). A real Redis behind a forwarder that can drop the connection and then
 * hold Redis's answers to the re-subscription.
 */
const REDIS_URL = new URL(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");

interface Forwarder {
  port: number;
  /** Drops every connection (ioredis reconnects by itself). */
  drop(): void;
  /** From now on, a connection that sends a SUBSCRIBE gets no more answers. */
  holdSubscribeAnswers(): void;
  /** Resolves once a held connection has sent its SUBSCRIBE. */
  subscribeHeld: Promise<void>;
  close(): Promise<void>;
}

async function startForwarder(): Promise<Forwarder> {
  const live = new Set<net.Socket>();
  let holding = false;
  let held!: () => void;
  const subscribeHeld = new Promise<void>((resolve) => {
    held = resolve;
  });
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(REDIS_URL.port || 6379), REDIS_URL.hostname);
    let hold = false;
    live.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.on("data", (chunk: Buffer) => {
      if (holding && /subscribe/i.test(chunk.toString("latin1"))) {
        hold = true;
        held();
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!hold) client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    drop() {
      for (const socket of live) socket.destroy();
      live.clear();
    },
    holdSubscribeAnswers() {
      holding = true;
    },
    subscribeHeld,
    close() {
      for (const socket of live) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
let forwarder: Forwarder;
beforeAll(async () => {
  process.on("unhandledRejection", record);
  forwarder = await startForwarder();
});
afterAll(async () => {
  process.off("unhandledRejection", record);
  await forwarder?.close();
});

it("closing a subscriber while its automatic re-subscription is unanswered leaves no unhandled rejection", async () => {
  const sub = withResubscribesHandled(
    new Redis({
      host: "127.0.0.1",
      port: forwarder.port,
      maxRetriesPerRequest: null,
      retryStrategy: () => 10,
    }),
  );
  sub.on("error", () => {});
  await sub.subscribe("bytetoll-test-resubscribe");
  await sub.psubscribe("bytetoll-test-resubscribe-*");

  forwarder.holdSubscribeAnswers();
  forwarder.drop();
  await forwarder.subscribeHeld;
  const ended = new Promise((resolve) => sub.once("end", resolve));
  sub.disconnect();
  await ended;
  // Unhandled rejections are reported once the microtasks after the close have run.
  await new Promise((resolve) => setImmediate(resolve));
  expect(unhandled).toEqual([]);
});
