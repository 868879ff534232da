import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_AN_OPERATOR } from "../../../src/modules/admin/operator-auth.ts";
import { createTestApp } from "../../helpers/test-app.ts";
import { balanceBytes, type Customer, customer } from "../orders/helpers.ts";
import {
  type ConsoleApp,
  createConsoleApp,
  newDeal,
  OPERATOR_EMAIL,
  pendingPayout,
  tokenHeaders,
  waitingOrder,
} from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;
let carol: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "alice@example.com");
  carol = await customer(t.app, "carol@example.com");
});
afterAll(() => t?.close());

interface Call {
  method: "GET" | "POST" | "PATCH";
  url: string;
  payload?: Record<string, unknown>;
}

let fresh = 0;
const freshCustomer = () => customer(t.app, `subject-${++fresh}@example.com`);

/** Every admin route, each call on a subject of its own (an action done twice would 409). */
const routes: Array<[string, () => Promise<Call>]> = [
  ["GET /admin/me", async () => ({ method: "GET", url: "/admin/me" })],
  ["GET /admin/overview", async () => ({ method: "GET", url: "/admin/overview?days=30" })],
  ["GET /admin/jobs", async () => ({ method: "GET", url: "/admin/jobs" })],
  ["GET /admin/customers", async () => ({ method: "GET", url: "/admin/customers?email=alice" })],
  ["GET /admin/customers/:id", async () => ({ method: "GET", url: `/admin/customers/${alice.id}` })],
  ["GET /admin/accounts", async () => ({ method: "GET", url: "/admin/accounts" })],
  ["GET /admin/orders", async () => ({ method: "GET", url: "/admin/orders?provider=sandbox" })],
  [
    "GET /admin/orders/:id",
    async () => ({ method: "GET", url: `/admin/orders/${await waitingOrder(t.app, alice)}` }),
  ],
  ["GET /admin/audit", async () => ({ method: "GET", url: "/admin/audit" })],
  ["GET /admin/deals", async () => ({ method: "GET", url: "/admin/deals" })],
  ["GET /admin/payouts", async () => ({ method: "GET", url: "/admin/payouts" })],
  [
    "POST /admin/credits",
    async () => ({
      method: "POST",
      url: "/admin/credits",
      payload: { email: "alice@example.com", gb: 1, note: "n" },
    }),
  ],
  [
    "POST /admin/customers/:id/credit",
    async () => ({
      method: "POST",
      url: `/admin/customers/${alice.id}/credit`,
      payload: { gb: 1, note: "n" },
    }),
  ],
  ...(["revoke-sessions", "regenerate-credentials", "disable", "enable"] as const).map(
    (action): [string, () => Promise<Call>] => [
      `POST /admin/customers/:id/${action}`,
      async () => ({ method: "POST", url: `/admin/customers/${(await freshCustomer()).id}/${action}` }),
    ],
  ),
  ...(["mark-paid", "expire"] as const).map((action): [string, () => Promise<Call>] => [
    `POST /admin/orders/:id/${action}`,
    async () => ({ method: "POST", url: `/admin/orders/${await waitingOrder(t.app, alice)}/${action}` }),
  ]),
  [
    "POST /admin/deals",
    async () => ({
      method: "POST",
      url: "/admin/deals",
      payload: {
        deal_type: "group_buy",
        deal_title: "Access",
        deal_price: 1,
        deal_target_gb: 100,
        deal_start_time: new Date(Date.now() + 3_600_000).toISOString(),
        deal_end_time: new Date(Date.now() + 7_200_000).toISOString(),
      },
    }),
  ],
  [
    "PATCH /admin/deals/:id",
    async () => ({
      method: "PATCH",
      url: `/admin/deals/${(await newDeal(t.app)).id}`,
      payload: { deal_title: "Renamed" },
    }),
  ],
  [
    "POST /admin/deals/:id/cancel",
    async () => ({ method: "POST", url: `/admin/deals/${(await newDeal(t.app)).id}/cancel` }),
  ],
  [
    "POST /admin/payouts/:id/sent",
    async () => ({
      method: "POST",
      url: `/admin/payouts/${await pendingPayout(t.app, await freshCustomer())}/sent`,
      payload: { tx_hash: "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a" },
    }),
  ],
  [
    "POST /admin/payouts/:id/failed",
    async () => ({
      method: "POST",
      url: `/admin/payouts/${await pendingPayout(t.app, await freshCustomer())}/failed`,
    }),
  ],
];

const send = (call: Call, headers: Record<string, string>) =>
  t.app.inject({
    method: call.method,
    url: call.url,
    headers,
    ...(call.payload ? { payload: call.payload } : {}),
  });

const auditRows = async () =>
  Number((await t.database.query<{ n: string }>("SELECT count(*) AS n FROM admin_audit_log"))[0]?.n);

describe("every admin route", () => {
  it.each(routes)("%s: 401 without credentials, 403 for a customer, and changes nothing", async (_, make) => {
    const call = await make();
    const rowsBefore = await auditRows();
    const balanceBefore = await balanceBytes(t.app, alice);
    for (const headers of [{}, { authorization: "Bearer not-a-token-at-all" }] as Record<string, string>[]) {
      const response = await send(call, headers);
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
    }
    const refused = await send(call, carol.headers);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: NOT_AN_OPERATOR });
    expect(await auditRows()).toBe(rowsBefore);
    expect(await balanceBytes(t.app, alice)).toBe(balanceBefore);
  });

  it.each(routes)("%s: 2xx for an ADMIN_EMAILS operator's session and for ADMIN_TOKEN", async (_, make) => {
    for (const headers of [t.operator.headers, tokenHeaders]) {
      const response = await send(await make(), headers);
      expect([200, 201], `${response.statusCode} ${response.body}`).toContain(response.statusCode);
      expect(response.json().success).toBe(true);
    }
  });
});

describe("who is an operator", () => {
  it("GET /admin/me names the operator (the web shows the console on 200)", async () => {
    const me = await t.app.inject({ method: "GET", url: "/admin/me", headers: t.operator.headers });
    expect(me.json()).toEqual({ success: true, data: { actor: OPERATOR_EMAIL, email: OPERATOR_EMAIL } });
    const script = await t.app.inject({ method: "GET", url: "/admin/me", headers: tokenHeaders });
    expect(script.json()).toEqual({ success: true, data: { actor: "admin-token", email: null } });
  });

  it("an operator's API token works too, and the operator's sign-out ends the console session", async () => {
    const issued = await t.app.inject({
      method: "GET",
      url: "/account/api-token",
      headers: t.operator.headers,
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const apiToken = { authorization: `Bearer ${issued.json().data.token}` };
    expect((await t.app.inject({ method: "GET", url: "/admin/me", headers: apiToken })).statusCode).toBe(200);
    const operator = await customer(t.app, OPERATOR_EMAIL);
    const out = await t.app.inject({ method: "POST", url: "/auth/logout", headers: operator.headers });
    expect(out.statusCode, out.body).toBeLessThan(300);
    expect(
      (await t.app.inject({ method: "GET", url: "/admin/me", headers: operator.headers })).statusCode,
    ).toBe(401);
  });

  it("exists with ADMIN_EMAILS alone (ADMIN_TOKEN is then refused as a token), and not without either", async () => {
    const emailsOnly = await createTestApp({ ADMIN_EMAILS: OPERATOR_EMAIL }, { database: t.database });
    try {
      const me = await emailsOnly.app.inject({
        method: "GET",
        url: "/admin/me",
        headers: t.operator.headers,
      });
      expect(me.statusCode, me.body).toBe(200);
      const token = await emailsOnly.app.inject({ method: "GET", url: "/admin/me", headers: tokenHeaders });
      expect(token.statusCode).toBe(401);
    } finally {
      await emailsOnly.close();
    }
    const neither = await createTestApp({}, { database: t.database });
    try {
      const me = await neither.app.inject({ method: "GET", url: "/admin/me", headers: t.operator.headers });
      expect(me.statusCode).toBe(404);
    } finally {
      await neither.close();
    }
  });

  it("refuses to start with a malformed ADMIN_EMAILS, naming it", async () => {
    await expect(createTestApp({ ADMIN_EMAILS: "ops@example.com, not-an-email" })).rejects.toThrow(
      /ADMIN_EMAILS.*not-an-email/,
    );
  });
});
