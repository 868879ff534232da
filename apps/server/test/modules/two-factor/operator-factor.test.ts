import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode, totpStep } from "../../../src/modules/two-factor/totp.ts";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { testConfig } from "../../helpers/test-app.ts";
import { type ConsoleApp, createConsoleApp, tokenHeaders } from "../admin/helpers.ts";

let t: ConsoleApp;
beforeAll(async () => {
  t = await createConsoleApp({ ADMIN_2FA: "required" });
});
afterAll(() => t?.close());

const overview = (headers: Record<string, string>) =>
  t.app.inject({ method: "GET", url: "/admin/customers", headers });
const session = async (token: string) =>
  (await t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(token) })).json().data;

describe("ADMIN_2FA=required", () => {
  it("is the default in production only", () => {
    expect(testConfig({ NODE_ENV: "production", JWT_SECRET: "p".repeat(32) }).ADMIN_2FA).toBe("required");
    expect(testConfig({ NODE_ENV: "development" }).ADMIN_2FA).toBe("optional");
    expect(() => testConfig({ ADMIN_2FA: "sometimes" })).toThrow(/ADMIN_2FA/);
  });

  it("refuses an operator without a second factor, then answers once they add one", async () => {
    const { token } = t.operator;
    const refused = await overview(bearer(token));
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: expect.stringMatching(/second factor/i) });
    expect(await session(token)).toMatchObject({
      is_operator: true,
      second_factor: false,
      operator_factor_missing: true,
    });

    const { secret } = (
      await t.app.inject({ method: "POST", url: "/auth/2fa/totp/setup", headers: bearer(token) })
    ).json().data;
    const enabled = await t.app.inject({
      method: "POST",
      url: "/auth/2fa/totp/enable",
      headers: bearer(token),
      payload: { code: totpCode(secret, totpStep()) },
    });
    expect(enabled.statusCode).toBe(200);
    expect((await overview(bearer(token))).statusCode).toBe(200);
    expect(await session(token)).toMatchObject({ second_factor: true, operator_factor_missing: false });
  });

  it("keeps ADMIN_TOKEN working for automation, and refuses an operator's personal API token", async () => {
    expect((await overview(tokenHeaders)).statusCode).toBe(200);
    const apiToken = (
      await t.app.inject({ method: "GET", url: "/account/api-token", headers: bearer(t.operator.token) })
    ).json().data.token;
    expect((await overview(bearer(apiToken))).statusCode).toBe(403);
  });

  it("tells a customer nothing about operators' factors", async () => {
    const customer = await signIn(t.app, "plain-customer@example.com");
    expect(await session(customer.token)).toMatchObject({
      is_operator: false,
      operator_factor_missing: false,
    });
    expect((await overview(bearer(customer.token))).statusCode).toBe(403);
  });
});
