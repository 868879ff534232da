import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const EVM = "0x52908400098527886E0F7030069857D2E4169EE7";
const SOLANA = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
const INVALID = "refund_address must be a wallet address (0x… or a Solana address), or empty to clear it.";

const patch = (headers: Record<string, string>, payload: unknown) =>
  t.app.inject({ method: "PATCH", url: "/account/profile", headers, payload: payload as object });
const session = (token: string) =>
  t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(token) });

describe("PATCH /account/profile", () => {
  it("saves a trimmed refund address and the session shows it", async () => {
    const alice = await signIn(t.app, "profile-alice@example.com");
    const response = await patch(bearer(alice.token), { refund_address: `  ${EVM}  ` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        id: alice.id,
        email: "profile-alice@example.com",
        refund_address: EVM,
        low_balance_threshold_gb: 1,
        is_operator: false,
        second_factor: false,
        operator_factor_missing: false,
      },
    });
    expect((await session(alice.token)).json().data.refund_address).toBe(EVM);
  });

  it.each([
    ["an empty string", ""],
    ["only spaces", "   "],
    ["null", null],
  ])("clears the address when given %s", async (_label, value) => {
    const user = await signIn(t.app, `profile-clear-${String(value).length}@example.com`);
    await patch(bearer(user.token), { refund_address: EVM });
    const response = await patch(bearer(user.token), { refund_address: value });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.refund_address).toBeNull();
    expect((await session(user.token)).json().data.refund_address).toBeNull();
  });

  it("accepts a Solana address as withdrawals do", async () => {
    const user = await signIn(t.app, "profile-solana@example.com");
    const response = await patch(bearer(user.token), { refund_address: SOLANA });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.refund_address).toBe(SOLANA);
  });

  it.each([
    ["129 characters", { refund_address: "a".repeat(129) }, "refund_address must be at most 128 characters."],
    ["a space inside", { refund_address: "0xab cd" }, INVALID],
    ["markup", { refund_address: "<script>" }, INVALID],
    ["non-ASCII letters", { refund_address: "addrés" }, INVALID],
    ["text that is no wallet", { refund_address: "my-wallet" }, INVALID],
    ["a memo-style id", { refund_address: "bc1q:ab.cd_ef-9" }, INVALID],
    ["a short 0x address", { refund_address: "0xabc" }, INVALID],
    ["an EVM address one digit long", { refund_address: `${EVM}0` }, INVALID],
    ["a Solana address with a 0", { refund_address: `0${SOLANA.slice(1)}` }, INVALID],
    ["a number", { refund_address: 42 }, "refund_address must be a string (or empty to clear it)."],
    ["no field", {}, "Invalid body: Send refund_address, low_balance_threshold_gb or both."],
  ])("refuses %s with 400 and leaves the address alone", async (_label, payload, message) => {
    const user = await signIn(t.app, `profile-bad-${_label.replace(/\W/g, "")}@example.com`);
    await patch(bearer(user.token), { refund_address: SOLANA });
    const response = await patch(bearer(user.token), payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message });
    expect((await session(user.token)).json().data.refund_address).toBe(SOLANA);
  });

  it("refuses a body that is not a JSON object", async () => {
    const user = await signIn(t.app, "profile-array@example.com");
    const response = await t.app.inject({
      method: "PATCH",
      url: "/account/profile",
      headers: { ...bearer(user.token), "content-type": "application/json" },
      payload: "[1,2]",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
  });

  it("changes only the caller's account, whatever the body says", async () => {
    const alice = await signIn(t.app, "profile-own-alice@example.com");
    const bob = await signIn(t.app, "profile-own-bob@example.com");
    await patch(bearer(bob.token), { refund_address: SOLANA });
    const response = await patch(bearer(alice.token), {
      refund_address: EVM,
      id: bob.id,
      email: "profile-own-bob@example.com",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({
      id: alice.id,
      email: "profile-own-alice@example.com",
      refund_address: EVM,
      low_balance_threshold_gb: 1,
      is_operator: false,
      second_factor: false,
      operator_factor_missing: false,
    });
    expect((await session(bob.token)).json().data).toEqual({
      id: bob.id,
      email: "profile-own-bob@example.com",
      refund_address: SOLANA,
      is_operator: false,
      second_factor: false,
      operator_factor_missing: false,
    });
  });

  it("works with the API token too", async () => {
    const user = await signIn(t.app, "profile-apitoken@example.com");
    const token = await t.app.inject({
      method: "GET",
      url: "/account/api-token",
      headers: bearer(user.token),
    });
    const response = await patch(bearer(token.json().data.token), { refund_address: SOLANA });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.refund_address).toBe(SOLANA);
  });

  it("answers 401 without a valid bearer token", async () => {
    expect((await patch({}, { refund_address: EVM })).statusCode).toBe(401);
    const response = await patch(
      { authorization: "Bearer not-a-token-at-all-really" },
      { refund_address: EVM },
    );
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: "Unauthorized" });
  });
});
