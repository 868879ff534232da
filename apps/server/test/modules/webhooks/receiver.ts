import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";

export interface Received {
  body: string;
  json: { id: string; type: string; created: number; data: Record<string, unknown> };
  signature: string;
  /** What the documented Node.js snippet (docs/product.md) said of the signature. */
  verified: boolean;
  /** What this receiver answered. */
  answered: number | "hang";
}

/** The Node.js verification snippet exactly as docs/product.md shows it to customers. */
export function documentedVerifier(): (body: string, header: string, secret: string) => boolean {
  const doc = readFileSync(new URL("../../../../../docs/product.md", import.meta.url), "utf8");
  const block = /<!-- webhook-verify-node -->\s*```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error("docs/product.md has no webhook-verify-node snippet");
  const make = new Function("require", `${block}\nreturn verifyByteTollSignature;`);
  return make(createRequire(import.meta.url));
}

/** A customer's receiver on loopback: records every request and answers `status()` (a status, or
 * "hang" to never answer). */
export async function startReceiver(secret: () => string, status: () => number | "hang" = () => 200) {
  const verify = documentedVerifier();
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = String(request.headers["bytetoll-signature"] ?? "");
      const answer = status();
      received.push({
        body,
        json: JSON.parse(body),
        signature,
        verified: verify(body, signature, secret()),
        answered: answer,
      });
      if (answer === "hang") return;
      response.writeHead(answer).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Waits until `done` holds, polling; fails with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  read: () => Promise<T> | T,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await read();
      if (!done(value)) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
      return value;
    },
    { timeout: timeoutMs, interval: 25 },
  );
}

/** Waits until nothing is left to send to `url`. A delivery is one row per event and endpoint and
 * is sent only while pending, so once none is pending no further request can arrive: a check
 * that something was sent only once can then be made without waiting out a guess. */
export async function nothingLeftToSend(
  database: { query<R>(sql: string, params?: unknown[]): Promise<R[]> },
  url: string,
): Promise<void> {
  await eventually(
    `every delivery to ${url} to be done`,
    () =>
      database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE e.url = $1 AND d.status = 'pending'`,
        [url],
      ),
    (rows) => rows[0]?.n === 0,
  );
}
