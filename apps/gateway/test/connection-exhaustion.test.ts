import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { basic, type SeededUser, seedUser, startGateway } from "./support/harness.ts";
import { startOrigin, type TestOrigin } from "./support/origin.ts";
import { connectFrom, openConnections, type RawClient, waitFor } from "./support/raw-client.ts";

/** Small caps so a handful of loopback addresses can fill them (Linux routes all of 127/8 to lo):
 * 127.a.b.c addresses differ in their /24 by a and b. */
const TOTAL = 40;
const PER_IP = 10;
const PER_NETWORK = 25;

let database: TestDatabase;
let gateway: Gateway;
let origin: TestOrigin;
let payer: SeededUser;
let opened: RawClient[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startGateway(database, {
    maxConnections: TOTAL,
    maxConnectionsPerIp: PER_IP,
    maxConnectionsPerNetwork: PER_NETWORK,
  });
  origin = await startOrigin();
  payer = await seedUser(database, 1_000_000_000);
});
afterEach(async () => {
  for (const client of opened) {
    client.socket.destroy();
    client.tcp.destroy();
  }
  opened = [];
  await waitFor(async () => (await openConnections(gateway)) === 0, "every connection to close");
});
afterAll(async () => {
  await gateway.close();
  await origin.close();
  await database.close();
});

const get = () =>
  `GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: origin\r\nProxy-Authorization: ${basic(payer.username, payer.password)}\r\n\r\n`;

async function open(localAddress: string, options: { secure?: boolean; handshake?: boolean } = {}) {
  const port = options.secure ? gateway.httpsPort : gateway.httpPort;
  const client = await connectFrom(port, localAddress, options);
  opened.push(client);
  return client;
}

/** Idle connections that never authenticate: `perAddress` from each address given. */
async function strangers(addresses: string[], perAddress: number, secure = false): Promise<RawClient[]> {
  const clients: RawClient[] = [];
  for (const address of addresses)
    for (let i = 0; i < perAddress; i++)
      clients.push(await open(address, { secure, handshake: secure ? i % 2 === 0 : undefined }));
  return clients;
}

/** A paying customer's request on a new connection: its answer's status line. */
async function customerRequest(localAddress: string, secure = false): Promise<RawClient> {
  const client = await open(localAddress, { secure });
  client.socket.write(get());
  await waitFor(
    () => client.state.received.includes("hello from origin") || client.state.closed,
    "the customer's answer",
  );
  return client;
}

describe("connection exhaustion by strangers' idle connections", () => {
  it("serves a paying customer when idle strangers fill the total, cutting the oldest of them", async () => {
    // The oldest: TLS connections, half of them still in the handshake.
    const oldest = await strangers(["127.41.0.1", "127.41.0.2"], 5, true);
    const rest = await strangers(["127.42.0.1", "127.42.0.2", "127.43.0.1"], 10);
    expect(await openConnections(gateway)).toBe(TOTAL);

    const customer = await customerRequest("127.50.0.1");
    expect(customer.state.received).toMatch(/^HTTP\/1\.1 200 /);
    const overTls = await customerRequest("127.50.0.1", true);
    expect(overTls.state.received).toMatch(/^HTTP\/1\.1 200 /);
    await waitFor(() => (oldest[0] as RawClient).state.closed, "the oldest stranger to be cut");
    await waitFor(() => (oldest[1] as RawClient).state.closed, "the next oldest stranger to be cut");
    expect(rest.every((client) => !client.state.closed)).toBe(true);
  });

  it("keeps customers' connections: strangers beyond the total only displace strangers", async () => {
    const customers: RawClient[] = [];
    for (let i = 0; i < 10; i++) customers.push(await customerRequest(`127.51.0.${1 + (i % 3)}`));
    // Three times the total from twelve addresses in four networks.
    const addresses = [1, 2, 3, 4].flatMap((network) => [1, 2, 3].map((host) => `127.6${network}.0.${host}`));
    await strangers(addresses, PER_IP);
    await waitFor(async () => (await openConnections(gateway)) === TOTAL, "the total to be held");
    for (const client of customers) {
      const before = client.state.received.length;
      client.socket.write(get());
      await waitFor(
        () => client.state.received.slice(before).includes("hello from origin"),
        "a customer's next answer on its old connection",
      );
    }
    const newcomer = await customerRequest("127.70.0.1");
    expect(newcomer.state.received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("caps a network (IPv4 /24): a customer in the same /24 as the strangers is still served", async () => {
    const neighbours = await strangers(["127.80.0.1", "127.80.0.2", "127.80.0.3"], PER_IP);
    // PER_NETWORK of them are open; the rest displaced their own network's oldest.
    await waitFor(
      () => neighbours.filter((c) => c.state.closed).length === 3 * PER_IP - PER_NETWORK,
      "the network cap",
    );
    const customer = await customerRequest("127.80.0.99");
    expect(customer.state.received).toMatch(/^HTTP\/1\.1 200 /);
    await waitFor(async () => (await openConnections(gateway)) === PER_NETWORK, "the network's cap to hold");
  });

  it("refuses a connection past its own address's cap with 503", async () => {
    await strangers(["127.90.0.1"], PER_IP);
    const refused = await open("127.90.0.1");
    await waitFor(() => refused.state.closed, "the refusal");
    expect(refused.state.received).toMatch(/^HTTP\/1\.1 503 /);
  });

  it("gives a stranger's idle kept-alive connection a short deadline, a customer's the long one", async () => {
    const stranger = await open("127.95.0.1");
    stranger.socket.write(`GET http://127.0.0.1:${origin.port}/ HTTP/1.1\r\nHost: origin\r\n\r\n`);
    await waitFor(() => stranger.state.received.includes("\r\n\r\n"), "the 407");
    expect(stranger.state.received).toMatch(/^HTTP\/1\.1 407 /);
    const customer = await customerRequest("127.95.0.2");
    const idleFrom = Date.now();
    await waitFor(() => stranger.state.closed, "the stranger's idle connection to be cut", 8_000);
    expect(Date.now() - idleFrom).toBeLessThan(7_000);
    expect(customer.state.closed).toBe(false);
  });
});
