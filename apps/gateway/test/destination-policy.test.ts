import net from "node:net";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/gateway.ts";
import { FRONT_ENDS, reach } from "./support/front-ends.ts";
import { type SeededUser, seedUser, startGateway } from "./support/harness.ts";

/** What docs/product.md promises: a rule change reaches every gateway within this. */
const RULE_CHANGE_MS = 5_000;

let database: TestDatabase;
let gateways: Gateway[];
let alice: SeededUser;
let bob: SeededUser;
/** Names the gateways asked the test's resolver for. */
const lookedUp: string[] = [];
/** Connections the mail listener on 127.0.0.1:25 received. */
let mailConnections = 0;
let mail: net.Server;
const mailSockets = new Set<net.Socket>();

const resolveHost = async (host: string) => {
  lookedUp.push(host);
  return ["127.0.0.1"];
};

beforeAll(async () => {
  database = await createTestDatabase();
  mail = net.createServer((socket) => {
    mailConnections += 1;
    mailSockets.add(socket);
    socket.on("close", () => mailSockets.delete(socket));
    socket.on("error", () => {});
    socket.end("220 mail.test ESMTP\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    mail.once("error", reject);
    mail.listen(25, "127.0.0.1", resolve);
  });
  // Two instances on one database whose caches outlive the test: a rule change can reach them
  // only through the change feed. EGRESS_ALLOW opens loopback on every port.
  const config = { egressAllow: ["127.0.0.0/8"], resolveHost, cacheTtlMs: 600_000 };
  gateways = [await startGateway(database, config), await startGateway(database, config)];
  alice = await seedUser(database, 1e10);
  bob = await seedUser(database, 1e10);
});
afterAll(async () => {
  for (const socket of mailSockets) socket.destroy();
  await new Promise((resolve) => mail?.close(resolve));
  for (const gateway of gateways ?? []) await gateway.close();
  await database?.close();
});

async function refusalsCounted(gateway: Gateway, reason: string): Promise<number> {
  const metric = gateway.metricsRegistry.getSingleMetric("bytetoll_gateway_refusals_total");
  const values = (await metric?.get())?.values ?? [];
  return values.find((value) => value.labels.reason === reason)?.value ?? 0;
}

async function ruleHits(gateway: Gateway, action: string): Promise<number> {
  const metric = gateway.metricsRegistry.getSingleMetric("bytetoll_gateway_destination_rule_hits_total");
  const values = (await metric?.get())?.values ?? [];
  return values.filter((value) => value.labels.action === action).reduce((sum, v) => sum + v.value, 0);
}

async function insertRule(rule: { action: string; domain?: string; ports?: string; customer?: string }) {
  const [row] = await database.query<{ id: string }>(
    `INSERT INTO destination_rules (action, domain, ports, customer_id, reason)
     VALUES ($1, $2, $3, $4, 'test rule ' || $1) RETURNING id`,
    [rule.action, rule.domain ?? null, rule.ports ?? null, rule.customer ?? null],
  );
  return Number(row?.id);
}

describe("destination policy", () => {
  it("refuses port 25 on every front-end of both instances under the default rule, before dialling", async () => {
    for (const [index, gateway] of gateways.entries()) {
      const before = await refusalsCounted(gateway, "destination_blocked");
      for (const frontEnd of FRONT_ENDS) {
        for (const host of ["127.0.0.1", "mail.test"]) {
          const answer = await reach(gateway, frontEnd, alice, host, 25);
          const what = `${frontEnd} to ${host}:25 on gateway ${index}`;
          if (frontEnd === "socks5") expect(answer.socksReply, what).toBe(2);
          else {
            expect(answer, what).toEqual({
              status: 403,
              error: "destination_blocked",
              message: "Outgoing e-mail and other low ports are not allowed through the proxy",
            });
          }
        }
      }
      expect(await refusalsCounted(gateway, "destination_blocked")).toBe(before + 2 * FRONT_ENDS.length);
    }
    expect(mailConnections).toBe(0);
    // Refused before the name was looked up.
    expect(lookedUp).not.toContain("mail.test");
  });

  it("lets one customer reach port 25 once a rule for that customer allows it, and only that customer", async () => {
    const rule = await insertRule({ action: "allow", ports: "25", customer: alice.userId });
    for (const gateway of gateways) {
      await expect
        .poll(async () => (await reach(gateway, "connect", alice, "127.0.0.1", 25)).status, {
          timeout: RULE_CHANGE_MS,
          interval: 50,
        })
        .toBe(200);
      for (const frontEnd of FRONT_ENDS) {
        const before = mailConnections;
        const answer = await reach(gateway, frontEnd, alice, "127.0.0.1", 25);
        expect(answer.error, frontEnd).not.toBe("destination_blocked");
        await expect.poll(() => mailConnections, { timeout: 2_000 }).toBe(before + 1);
        const refused = await reach(gateway, frontEnd, bob, "127.0.0.1", 25);
        if (frontEnd === "socks5") expect(refused.socksReply).toBe(2);
        else expect(refused.error, frontEnd).toBe("destination_blocked");
      }
    }
    await database.query("DELETE FROM destination_rules WHERE id = $1", [rule]);
    for (const gateway of gateways) {
      await expect
        .poll(async () => (await reach(gateway, "connect", alice, "127.0.0.1", 25)).error, {
          timeout: RULE_CHANGE_MS,
          interval: 50,
        })
        .toBe("destination_blocked");
    }
    // Polled until refused: from then on no front-end connects.
    const connected = mailConnections;
    for (const gateway of gateways)
      for (const frontEnd of FRONT_ENDS) await reach(gateway, frontEnd, alice, "127.0.0.1", 25);
    expect(mailConnections).toBe(connected);
  });

  it("refuses a name a domain rule blocks without ever looking it up, on every front-end", async () => {
    await insertRule({ action: "block", domain: "*.spam.test" });
    await insertRule({ action: "block", domain: "exact.test", ports: "443" });
    for (const gateway of gateways) {
      // Both rules read: each insert is announced on its own.
      await expect
        .poll(
          async () => [
            (await reach(gateway, "connect", alice, "www.spam.test", 443)).error,
            (await reach(gateway, "connect", alice, "exact.test", 443)).error,
          ],
          { timeout: RULE_CHANGE_MS, interval: 50 },
        )
        .toEqual(["destination_blocked", "destination_blocked"]);
    }
    // Names looked up while the rules were on their way do not count.
    lookedUp.length = 0;
    for (const gateway of gateways) {
      for (const frontEnd of FRONT_ENDS) {
        for (const [host, port] of [
          ["deep.mail.spam.test", 8080],
          ["exact.test", 443],
        ] as const) {
          const answer = await reach(gateway, frontEnd, bob, host, port);
          if (frontEnd === "socks5") expect(answer.socksReply, `${frontEnd} ${host}`).toBe(2);
          else
            expect(answer, `${frontEnd} ${host}`).toMatchObject({
              status: 403,
              error: "destination_blocked",
            });
        }
      }
    }
    expect(lookedUp.filter((name) => name.endsWith("spam.test") || name === "exact.test")).toEqual([]);
    // The exact rule covers its own name and port only; the suffix rule not its parent.
    const other = await reach(gateways[0] as Gateway, "connect", bob, "exact.test", 8443);
    expect(other.error).not.toBe("destination_blocked");
    const parent = await reach(gateways[0] as Gateway, "connect", bob, "spam.test", 8443);
    expect(parent.error).not.toBe("destination_blocked");
  });

  it("lets traffic a report rule matches through and counts it", async () => {
    const rule = await insertRule({ action: "report", domain: "watched.test" });
    const gateway = gateways[1] as Gateway;
    await expect
      .poll(
        async () => {
          await reach(gateway, "connect", bob, "watched.test", 25000);
          return ruleHits(gateway, "report");
        },
        { timeout: RULE_CHANGE_MS, interval: 50 },
      )
      .toBeGreaterThan(0);
    const before = await ruleHits(gateway, "report");
    const answer = await reach(gateway, "connect", bob, "watched.test", 25000);
    expect(answer.error).not.toBe("destination_blocked");
    expect(lookedUp).toContain("watched.test");
    expect(await ruleHits(gateway, "report")).toBe(before + 1);
    // Kept for the operator's abuse look-up: per rule, day, credential and name.
    await gateway.flush();
    const rows = await database.query<{ rule_id: string; user_id: string; domain: string; hits: string }>(
      "SELECT rule_id, user_id, domain, hits FROM destination_report_hits WHERE domain = 'watched.test'",
    );
    expect(rows.map((row) => ({ ...row, rule_id: Number(row.rule_id), hits: Number(row.hits) }))).toEqual([
      { rule_id: rule, user_id: bob.userId, domain: "watched.test", hits: before + 1 },
    ]);
  });
});
