import net from "node:net";
import type { DestinationRule } from "@bytetoll/contracts";
import type { Gateway } from "@bytetoll/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestGateway } from "../../helpers/test-gateway.ts";
import { type Customer, customer } from "../orders/helpers.ts";
import { audit, type ConsoleApp, createConsoleApp, tokenHeaders } from "./helpers.ts";

/** What docs/product.md promises: a rule change reaches every gateway within this. */
const RULE_CHANGE_MS = 5_000;
/** A submission port on a loopback address of its own (the gateway's own test uses 127.0.0.1:25). */
const MAIL_HOST = "127.0.0.3";
const MAIL_PORT = 587;

let t: ConsoleApp;
let gateways: Gateway[];
let vetted: Customer;
let other: Customer;
let mail: net.Server;
const mailSockets = new Set<net.Socket>();
const proxyUsers = new Map<string, { username: string; password: string }>();

beforeAll(async () => {
  t = await createConsoleApp();
  mail = net.createServer((socket) => {
    mailSockets.add(socket);
    socket.on("close", () => mailSockets.delete(socket));
    socket.on("error", () => {});
    socket.end("220 mail.test ESMTP\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    mail.once("error", reject);
    mail.listen(MAIL_PORT, MAIL_HOST, resolve);
  });
  // Caches that outlive the test: only the change feed can bring a rule change in seconds.
  const settings = { egressAllow: ["127.0.0.0/8"], cacheTtlMs: 600_000 };
  gateways = [await startTestGateway(t.database, settings), await startTestGateway(t.database, settings)];
  vetted = await customer(t.app, "vetted-sender@example.com");
  other = await customer(t.app, "other-sender@example.com");
  for (const who of [vetted, other]) {
    const response = await t.app.inject({ method: "GET", url: "/credentials/latest", headers: who.headers });
    proxyUsers.set(who.id, response.json().data);
  }
}, 60_000);
afterAll(async () => {
  for (const socket of mailSockets) socket.destroy();
  await new Promise((resolve) => mail?.close(resolve));
  for (const gateway of gateways ?? []) await gateway.close();
  await t?.close();
});

/** The `X-ByteToll-Error` a CONNECT to the mail port gets through `gateway` (undefined: let through). */
function connectError(gateway: Gateway, who: Customer): Promise<string | undefined> {
  const user = proxyUsers.get(who.id) as { username: string; password: string };
  const auth = Buffer.from(`${user.username}:${user.password}`).toString("base64");
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.httpPort, "127.0.0.1");
    let head = "";
    socket.on("data", (chunk: Buffer) => {
      head += chunk.toString("latin1");
      if (!head.includes("\r\n\r\n")) return;
      socket.destroy();
      resolve(/^x-bytetoll-error: (\S+)/im.exec(head)?.[1]);
    });
    socket.on("error", reject);
    const authority = `${MAIL_HOST}:${MAIL_PORT}`;
    socket.write(
      `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\nProxy-Authorization: Basic ${auth}\r\n\r\n`,
    );
  });
}

/** Waits until every gateway answers `who` with `expected`; resolves with how long it took. */
async function everyGateway(who: Customer, expected: string | undefined): Promise<number> {
  const started = Date.now();
  for (const gateway of gateways) {
    await expect
      .poll(() => connectError(gateway, who), { timeout: RULE_CHANGE_MS, interval: 50 })
      .toBe(expected);
  }
  return Date.now() - started;
}

const api = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers: tokenHeaders, ...(payload === undefined ? {} : { payload }) });

describe("/admin/destination-rules", () => {
  it("lists the fresh-install default: every low port but 80 and 443 refused, and 2525", async () => {
    const response = await api("GET", "/admin/destination-rules");
    expect(response.statusCode, response.body).toBe(200);
    const rules = response.json().data as DestinationRule[];
    expect(rules).toContainEqual(
      expect.objectContaining({
        action: "block",
        domain: null,
        ports: "1-79,81-442,444-1024,2525",
        customer_id: null,
        reason: "Outgoing e-mail and other low ports are not allowed through the proxy",
      }),
    );
  });

  it("refuses bad rules with a 400 naming the field, and changes nothing", async () => {
    const before = (await api("GET", "/admin/destination-rules")).json().data;
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ action: "deny", ports: "25", reason: "x" }, /action/],
      [{ action: "block", ports: "0-25", reason: "x" }, /ports/],
      [{ action: "block", ports: "25,", reason: "x" }, /ports/],
      [{ action: "block", domain: "*.com", reason: "x" }, /domain/],
      [{ action: "block", domain: "http://example.com", reason: "x" }, /domain/],
      [{ action: "block", reason: "x" }, /domain or ports/],
      [{ action: "block", ports: "25", reason: "" }, /reason/],
      [{ action: "block", ports: "25", reason: "x", customer_id: "nobody" }, /customer_id/],
      [
        { action: "block", ports: "25", reason: "x", customer_id: "00000000-0000-4000-8000-000000000001" },
        /customer_id/,
      ],
      [{ action: "block", ports: "25", reason: "x", priority: 1 }, /unknown field: priority/],
    ];
    for (const [payload, message] of cases) {
      const response = await api("POST", "/admin/destination-rules", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json(), JSON.stringify(payload)).toMatchObject({ success: false, message });
    }
    expect((await api("GET", "/admin/destination-rules")).json().data).toEqual(before);
    expect((await api("PATCH", "/admin/destination-rules/999999", { reason: "x" })).statusCode).toBe(404);
    expect((await api("DELETE", "/admin/destination-rules/999999")).statusCode).toBe(404);
    const customerCall = await t.app.inject({
      method: "GET",
      url: "/admin/destination-rules",
      headers: vetted.headers,
    });
    expect(customerCall.statusCode).toBe(403);
  });

  it("opens port 587 for one customer on every gateway within 5 s of a POST, and closes it on PATCH and DELETE", async () => {
    expect(await connectError(gateways[0] as Gateway, vetted)).toBe("destination_blocked");
    const created = await api("POST", "/admin/destination-rules", {
      action: "allow",
      ports: String(MAIL_PORT),
      customer_id: vetted.id,
      reason: "vetted newsletter sender",
    });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json().data as DestinationRule;
    expect(rule).toMatchObject({ customer_id: vetted.id, customer_email: "vetted-sender@example.com" });
    expect(await everyGateway(vetted, undefined)).toBeLessThan(RULE_CHANGE_MS);
    for (const gateway of gateways) expect(await connectError(gateway, other)).toBe("destination_blocked");

    const patched = await api("PATCH", `/admin/destination-rules/${rule.id}`, { ports: "465" });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(await everyGateway(vetted, "destination_blocked")).toBeLessThan(RULE_CHANGE_MS);
    const emptied = await api("PATCH", `/admin/destination-rules/${rule.id}`, { ports: null });
    expect(emptied.json()).toMatchObject({ success: false, message: /domain/ });

    await api("PATCH", `/admin/destination-rules/${rule.id}`, { ports: String(MAIL_PORT) });
    await everyGateway(vetted, undefined);
    const deleted = await api("DELETE", `/admin/destination-rules/${rule.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await everyGateway(vetted, "destination_blocked")).toBeLessThan(RULE_CHANGE_MS);

    const rows = (await audit(t.app, `subject=${rule.id}`)).filter(
      (row) => row.subject_type === "destination_rule",
    );
    expect(rows.map((row) => row.action).sort()).toEqual([
      "destination_rule.create",
      "destination_rule.delete",
      "destination_rule.update",
      "destination_rule.update",
    ]);
    const firstUpdate = rows.find(
      (row) => row.action === "destination_rule.update" && row.after?.ports === "465",
    );
    expect(firstUpdate).toMatchObject({ before: { ports: "587" }, after: { ports: "465" } });
  });
});

describe("/admin/abuse-lookup", () => {
  it("names the customers and sub-users whose traffic reached a domain, with bytes per day", async () => {
    const [sub] = await t.database.query<{ id: string }>(
      `INSERT INTO subusers (user_id, label, username, password_hash, password_enc, limit_period, period_start)
       VALUES ($1, 'mailer', 'suabuselookup', 'x', 'x', 'total', subuser_period_start('total')) RETURNING id`,
      [other.id],
    );
    const rollup = (user: string, subuser: string, day: string, domain: string, bytes: number) =>
      t.database.query(
        `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, subuser_id, bytes, requests)
         VALUES ($1, $2, $3, 'mobile', $4, $5, 1)`,
        [user, day, domain, subuser, bytes],
      );
    const own = "00000000-0000-0000-0000-000000000000";
    await rollup(vetted.id, own, "2026-11-02", "spam-target.example", 1_000);
    await rollup(vetted.id, own, "2026-11-03", "smtp.spam-target.example", 2_500);
    await rollup(other.id, sub?.id as string, "2026-11-03", "spam-target.example", 7_000);
    await rollup(other.id, own, "2026-11-03", "not-spam-target.example", 9_000);
    await rollup(other.id, own, "2026-10-01", "spam-target.example", 9_000);
    const [report] = await t.database.query<{ id: string }>(
      "INSERT INTO destination_rules (action, domain, reason) VALUES ('report', '*.spam-target.example', 'watching') RETURNING id",
    );
    await t.database.query(
      `INSERT INTO destination_report_hits (rule_id, day, user_id, subuser_id, domain, hits)
       VALUES ($1, '2026-11-03', $2, $3, 'smtp.spam-target.example', 12),
              ($1, '2026-10-03', $2, $3, 'smtp.spam-target.example', 5)`,
      [report?.id, vetted.id, own],
    );

    const response = await api(
      "GET",
      "/admin/abuse-lookup?target=Spam-Target.example&from=2026-11-01&to=2026-11-30",
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toEqual({
      target: "spam-target.example",
      from: "2026-11-01",
      to: "2026-11-30",
      rows: [
        {
          customer_id: other.id,
          email: "other-sender@example.com",
          disabled: false,
          subuser_id: sub?.id,
          subuser_label: "mailer",
          total_bytes: 7_000,
          days: [{ day: "2026-11-03", bytes: 7_000 }],
        },
        {
          customer_id: vetted.id,
          email: "vetted-sender@example.com",
          disabled: false,
          subuser_id: null,
          subuser_label: null,
          total_bytes: 3_500,
          days: [
            { day: "2026-11-02", bytes: 1_000 },
            { day: "2026-11-03", bytes: 2_500 },
          ],
        },
      ],
      reported: [
        {
          rule_id: Number(report?.id),
          reason: "watching",
          customer_id: vetted.id,
          email: "vetted-sender@example.com",
          subuser_id: null,
          subuser_label: null,
          domain: "smtp.spam-target.example",
          day: "2026-11-03",
          hits: 12,
        },
      ],
    });
  });

  it("refuses a window over 31 days or a target that is neither a domain nor an address, naming the field", async () => {
    const cases: Array<[string, RegExp]> = [
      ["target=example.com&from=2026-10-01&to=2026-11-01", /31 days/],
      ["target=example.com&from=2026-11-05&to=2026-11-01", /from/],
      ["target=*.example.com&from=2026-11-01&to=2026-11-02", /target/],
      ["from=2026-11-01&to=2026-11-02", /target/],
      ["target=example.com&from=yesterday&to=2026-11-02", /from/],
    ];
    for (const [query, message] of cases) {
      const response = await api("GET", `/admin/abuse-lookup?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json(), query).toMatchObject({ success: false, message });
    }
    const asCustomer = await t.app.inject({
      method: "GET",
      url: "/admin/abuse-lookup?target=example.com&from=2026-11-01&to=2026-11-02",
      headers: vetted.headers,
    });
    expect(asCustomer.statusCode).toBe(403);
  });
});
