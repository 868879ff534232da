import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Customer, customer } from "../orders/helpers.ts";
import { type ConsoleApp, createConsoleApp } from "./helpers.ts";

let t: ConsoleApp;
let alice: Customer;

beforeAll(async () => {
  t = await createConsoleApp();
  alice = await customer(t.app, "flag-alice@example.com");
});
afterAll(() => t?.close());

const get = (who: Customer, url: string) => t.app.inject({ method: "GET", url, headers: who.headers });

describe("is_operator on the signed-in user's own answers", () => {
  it("is true in an operator's session and profile, so the dashboard needs no admin call to link the console", async () => {
    const session = await get(t.operator, "/auth/session");
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().data.is_operator).toBe(true);
    expect((await get(t.operator, "/account/profile")).json().data.is_operator).toBe(true);
  });

  it("is false for a customer, whose session and profile answer 200 (only the admin API says 403)", async () => {
    const session = await get(alice, "/auth/session");
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().data.is_operator).toBe(false);
    expect((await get(alice, "/account/profile")).json().data.is_operator).toBe(false);
    expect((await get(alice, "/admin/me")).statusCode).toBe(403);
  });

  it("survives a profile change, whose answer replaces the cached session", async () => {
    const saved = await t.app.inject({
      method: "PATCH",
      url: "/account/profile",
      headers: t.operator.headers,
      payload: { refund_address: "0x52908400098527886E0F7030069857D2E4169EE7" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({
      refund_address: "0x52908400098527886E0F7030069857D2E4169EE7",
      is_operator: true,
    });
  });

  it("is false for everyone on a server without ADMIN_EMAILS", async () => {
    const plain = await createConsoleApp({ ADMIN_EMAILS: "" });
    try {
      expect(
        (
          await plain.app.inject({ method: "GET", url: "/auth/session", headers: plain.operator.headers })
        ).json().data.is_operator,
      ).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
