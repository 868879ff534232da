import { accountDisabledMessage } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectRealtime } from "../../helpers/realtime-client.ts";
import { latestLinkToken, requestLink, verify } from "../../helpers/sign-in.ts";
import { balanceBytes, type Customer, customer, GB } from "../orders/helpers.ts";
import {
  audit,
  type ConsoleApp,
  createConsoleApp,
  OPERATOR_EMAIL,
  tokenHeaders,
  waitingOrder,
} from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "alice@example.com");
});
afterAll(() => t?.close());

const act = (id: string, action: string, payload?: Record<string, unknown>) =>
  t.app.inject({
    method: "POST",
    url: `/admin/customers/${id}/${action}`,
    headers: t.operator.headers,
    ...(payload ? { payload } : {}),
  });

const apiToken = async (who: Customer) => {
  const response = await t.app.inject({ method: "GET", url: "/account/api-token", headers: who.headers });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json().data.token}` };
};

describe("customers", () => {
  it("finds customers by a piece of their e-mail, a page at a time", async () => {
    await customer(t.app, "alice.two@example.com");
    const response = await t.app.inject({
      method: "GET",
      url: "/admin/customers?email=ALICE&per_page=1&page=2",
      headers: t.operator.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, page: 2, per_page: 1, total: 2 });
    expect(body.data).toEqual([expect.objectContaining({ email: "alice@example.com", disabled_at: null })]);
  });

  it("shows a customer's page: balance, sessions, token, credentials, 30 days of usage, ledger and orders", async () => {
    await waitingOrder(t.app, alice, 5);
    await apiToken(alice);
    const response = await t.app.inject({
      method: "GET",
      url: `/admin/customers/${alice.id}`,
      headers: t.operator.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data;
    expect(data).toMatchObject({
      id: alice.id,
      email: "alice@example.com",
      balance_bytes: 1 * GB,
      disabled_at: null,
      leased_bytes: 0,
      sessions: { active: 1 },
      api_token: { exists: true },
      ledger: { total: 1, page: 1, per_page: 20 },
      orders: { total: 1 },
    });
    expect(data.ledger.data[0]).toMatchObject({ kind: "bonus", delta_gb: 1 });
    expect(data.orders.data[0]).toMatchObject({
      amount_usd: 5,
      email: "alice@example.com",
      provider: "sandbox",
    });
    expect(data.usage_by_day).toHaveLength(30);
    expect(data.usage_by_day[29].day).toBe(new Date().toISOString().slice(0, 10));
  });

  it.each([
    ["GET", "/admin/customers/not-a-uuid", 400],
    ["GET", "/admin/customers/00000000-0000-4000-8000-000000000000", 404],
    ["POST", "/admin/customers/00000000-0000-4000-8000-000000000000/disable", 404],
    ["POST", "/admin/customers/not-a-uuid/credit", 400],
    ["GET", "/admin/customers?per_page=0", 400],
    ["GET", "/admin/customers?page=abc", 400],
    ["GET", "/admin/customers?colour=blue", 400],
  ] as const)("%s %s → %i, nothing written", async (method, url, status) => {
    const before = (await audit(t.app)).length;
    const response = await t.app.inject({
      method,
      url,
      headers: t.operator.headers,
      ...(method === "POST" ? { payload: url.endsWith("credit") ? { gb: 1, note: "x" } : {} } : {}),
    });
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toEqual({ success: false, message: expect.any(String) });
    expect((await audit(t.app)).length).toBe(before);
  });

  it("credits and debits with a note, once per Idempotency-Key, each with an audit row", async () => {
    const bob = await customer(t.app, "bob@example.com");
    const credit = () =>
      t.app.inject({
        method: "POST",
        url: `/admin/customers/${bob.id}/credit`,
        headers: { ...t.operator.headers, "idempotency-key": "bob-credit-1" },
        payload: { gb: 2, note: "goodwill" },
      });
    expect((await credit()).json()).toMatchObject({
      message: "Balance adjusted",
      data: { delta_bytes: 2 * GB },
    });
    expect((await credit()).json()).toMatchObject({ message: "Already applied", data: { delta_bytes: 0 } });
    const debit = await act(bob.id, "credit", { gb: -0.5, note: "abuse" });
    expect(debit.statusCode, debit.body).toBe(200);
    expect(await balanceBytes(t.app, bob)).toBe(2.5 * GB);
    const rows = await audit(t.app, `subject=${bob.id}`);
    expect(rows).toEqual([
      expect.objectContaining({
        actor: OPERATOR_EMAIL,
        action: "customer.debit",
        before: { balance_bytes: 3 * GB },
        after: expect.objectContaining({ balance_bytes: 2.5 * GB }),
        note: "abuse",
      }),
      expect.objectContaining({
        action: "customer.credit",
        before: { balance_bytes: 1 * GB },
        after: expect.objectContaining({ balance_bytes: 3 * GB }),
        note: "goodwill",
      }),
    ]);
    const refused = await act(bob.id, "credit", { gb: 0, note: "x" });
    expect(refused.statusCode).toBe(400);
  });

  it("revokes every session (the customer is signed out) and regenerates proxy credentials", async () => {
    const carol = await customer(t.app, "carol@example.com");
    const before = await t.app.inject({ method: "GET", url: "/credentials/latest", headers: carol.headers });
    expect(before.statusCode, before.body).toBe(200);
    const revoked = await act(carol.id, "revoke-sessions", { note: "lost laptop" });
    expect(revoked.json()).toMatchObject({ success: true, message: "1 session revoked" });
    expect(
      (await t.app.inject({ method: "GET", url: "/account/status", headers: carol.headers })).statusCode,
    ).toBe(401);
    const again = await customer(t.app, "carol@example.com");
    expect((await act(carol.id, "regenerate-credentials")).statusCode).toBe(200);
    const after = await t.app.inject({ method: "GET", url: "/credentials/latest", headers: again.headers });
    expect(after.json().data.username).toBe(before.json().data.username);
    expect(after.json().data.password).not.toBe(before.json().data.password);
    const actions = (await audit(t.app, `subject=${carol.id}`)).map((row) => row.action);
    expect(actions).toEqual(["customer.regenerate_credentials", "customer.revoke_sessions"]);
    const revokedRow = (await audit(t.app, `subject=${carol.id}&action=customer.revoke_sessions`))[0];
    expect(revokedRow).toMatchObject({
      before: { active_sessions: 1 },
      after: { active_sessions: 0 },
      note: "lost laptop",
    });
  });
});

describe("a disabled account", () => {
  it("gets 403 on every API call (session and API token) and at sign-in; enable restores it", async () => {
    const dave = await customer(t.app, "dave@example.com");
    const token = await apiToken(dave);
    const disabled = await act(dave.id, "disable", { note: "chargebacks" });
    expect(disabled.statusCode, disabled.body).toBe(200);
    expect(disabled.json()).toMatchObject({
      message: "Account disabled",
      data: { disabled_at: expect.any(String) },
    });

    for (const headers of [dave.headers, token]) {
      for (const url of ["/account/status", "/transactions", "/credentials/latest"]) {
        const response = await t.app.inject({ method: "GET", url, headers });
        expect(response.statusCode, `${url} ${response.body}`).toBe(403);
        expect(response.json()).toEqual({
          success: false,
          message: accountDisabledMessage(t.app.config.SUPPORT_CONTACT),
        });
      }
    }
    // Asking for a link looks the same as for anyone (nothing is revealed); following it is refused.
    const asked = await requestLink(t.app, "dave@example.com");
    expect(asked.statusCode).toBe(200);
    const followed = await verify(t.app, await latestLinkToken(t.app, "dave@example.com"));
    expect(followed.statusCode).toBe(403);
    expect(followed.json()).toEqual({
      success: false,
      message: accountDisabledMessage(t.app.config.SUPPORT_CONTACT),
    });
    expect((await act(dave.id, "disable")).json().message).toBe("Already disabled");

    const enabled = await act(dave.id, "enable");
    expect(enabled.json()).toMatchObject({ message: "Account enabled", data: { disabled_at: null } });
    for (const headers of [dave.headers, token]) {
      expect((await t.app.inject({ method: "GET", url: "/account/status", headers })).statusCode).toBe(200);
    }
    expect((await verify(t.app, await latestLinkToken(t.app, "dave@example.com"))).statusCode).toBe(200);
    const rows = await audit(t.app, `subject=${dave.id}`);
    expect(rows.map((row) => [row.action, row.before, row.after])).toEqual([
      ["customer.enable", { disabled_at: expect.any(String) }, { disabled_at: null }],
      ["customer.disable", { disabled_at: null }, { disabled_at: expect.any(String) }],
    ]);
  });

  it("loses its realtime connection at once", async () => {
    const erin = await customer(t.app, "erin@example.com");
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const socket = await connectRealtime(t.app, erin.token);
    try {
      const closed = new Promise<void>((resolve) => socket.once("disconnect", () => resolve()));
      expect((await act(erin.id, "disable")).statusCode).toBe(200);
      await closed;
      expect(socket.connected).toBe(false);
      await expect(connectRealtime(t.app, erin.token)).rejects.toThrow();
    } finally {
      socket.disconnect();
    }
  });

  it("as the ADMIN_TOKEN does it, the audit log names admin-token", async () => {
    const frank = await customer(t.app, "frank@example.com");
    const response = await t.app.inject({
      method: "POST",
      url: `/admin/customers/${frank.id}/disable`,
      headers: tokenHeaders,
    });
    expect(response.statusCode).toBe(200);
    expect((await audit(t.app, `subject=${frank.id}`))[0]).toMatchObject({
      actor: "admin-token",
      action: "customer.disable",
      subject_type: "account",
    });
  });
});
