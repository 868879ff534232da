import net from "node:net";
import { PassThrough } from "node:stream";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Admitted } from "../admit/admission.ts";
import { dial } from "../dial/dial.ts";
import { ConnectionOutcomes } from "./outcomes.ts";
import { TunnelContext } from "./tunnel-context.ts";

/** A loopback address of its own, so port 443 is free whatever else runs on this machine. */
const HOST = "127.0.0.77";

let database: TestDatabase;
let site: net.Server;
beforeAll(async () => {
  database = await createTestDatabase();
  // Answers a TLS ClientHello with a few bytes and hangs up: a handshake cut short. A client that
  // sends a single byte is kept waiting for the rest of its hello.
  site = net.createServer((socket) => {
    socket.on("error", () => {});
    socket.once("data", (data) => {
      if (data.length > 1) socket.end(Buffer.alloc(7));
    });
  });
  await new Promise<void>((resolve) => site.listen(443, HOST, resolve));
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await database.close();
});

function tunnelTo(domain: string): TunnelContext {
  const admitted = {
    account: { userId: "00000000-0000-4000-8000-000000000001" },
    target: { address: HOST, port: 443, domain },
    proxyType: "dc",
    upstream: { kind: "direct", id: "direct" },
  } as Admitted;
  return new TunnelContext(new PassThrough(), "connect", admitted);
}

/** A tunnel's first steps: its dial, then its end watched, as openTunnel takes them. */
async function dialTunnel(outcomes: ConnectionOutcomes, tunnel: TunnelContext) {
  const target = await dial(tunnel);
  tunnel.targetSocket = target;
  outcomes.tunnelOpened(tunnel);
  return target;
}

describe("connection outcomes", () => {
  it("counts a tunnel to 443 whose target hung up before a TLS first flight as cut short", async () => {
    const outcomes = new ConnectionOutcomes(database, pino({ level: "silent" }));
    const tunnel = tunnelTo("cut.example");
    const target = await dialTunnel(outcomes, tunnel);
    const closed = new Promise((resolve) => target.socket.once("close", resolve));
    // The meter takes the tunnel's bytes as they pass, as it does for every live tunnel.
    const take = () => {
      target.takeUnbilled();
      return true;
    };
    if (target.reads) target.reads.sink = take;
    else target.socket.on("data", take);
    target.socket.write(Buffer.alloc(300, 1));
    await closed;
    target.takeUnbilled();
    expect(tunnel.end).toBe("tls_cut");
    await outcomes.flush();
    const [row] = await database.query<{ connections: string; tls_cut: string }>(
      "SELECT connections, tls_cut FROM domain_outcomes WHERE domain = 'cut.example'",
    );
    expect({ connections: Number(row?.connections), tlsCut: Number(row?.tls_cut) }).toEqual({
      connections: 1,
      tlsCut: 1,
    });
  });

  it("does not count a tunnel the client closed after one byte against the site", async () => {
    const outcomes = new ConnectionOutcomes(database, pino({ level: "silent" }));
    const tunnel = tunnelTo("self-closed.example");
    const target = await dialTunnel(outcomes, tunnel);
    const closed = new Promise((resolve) => target.socket.once("close", resolve));
    if (target.reads) target.reads.sink = () => true;
    // What the relay does when the client sends one byte and hangs up: the byte, then our FIN.
    target.socket.end(Buffer.alloc(1, 1));
    // The site answers the FIN by closing too, having sent nothing.
    await closed;
    expect(tunnel.end).toBe("ok");
    await outcomes.flush();
    const rows = await database.query<{ connections: string; failures: string; account: string }>(
      `SELECT connections, dial_failures + resets + tls_cut + blocked_statuses AS failures, account
       FROM domain_outcomes WHERE domain = 'self-closed.example'`,
    );
    expect(rows.map((row) => [Number(row.connections), Number(row.failures), row.account])).toEqual([
      [1, 0, "00000000-0000-4000-8000-000000000001"],
    ]);
  });
});
