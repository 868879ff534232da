import { FACTOR_FAILURES_ALLOWED } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode, totpStep } from "../../../src/modules/two-factor/totp.ts";
import { bearer, latestLinkToken, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A loopback address of its own per call unless one is named: the per-address limit of one test
 * must not meet another's. */
let addresses = 0;
const nextAddress = () => `127.1.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

const post = (url: string, payload: object, token?: string, remoteAddress = nextAddress()) =>
  t.app.inject({ method: "POST", url, payload, headers: token ? bearer(token) : {}, remoteAddress });

/** An account with an authenticator app on; `step` is the step of the code that enabled it. */
async function withTotp(email: string) {
  const user = await signIn(t.app, email);
  const setup = await post("/auth/2fa/totp/setup", {}, user.token);
  expect(setup.statusCode).toBe(200);
  const { secret, otpauth_url, qr_code } = setup.json().data;
  expect(otpauth_url).toContain(`secret=${secret}`);
  expect(qr_code).toMatch(/^data:image\/png;base64,/);
  const step = totpStep();
  const enabled = await post("/auth/2fa/totp/enable", { code: totpCode(secret, step) }, user.token);
  expect(enabled.statusCode).toBe(200);
  return { user, secret, step, recoveryCodes: enabled.json().data.recovery_codes as string[] };
}

/** Follows a fresh login link and returns the magic/verify answer. */
async function followLink(email: string, remoteAddress = nextAddress()) {
  expect((await post("/auth/login", { email }, undefined, remoteAddress)).statusCode).toBe(200);
  const access_token = await latestLinkToken(t.app, email);
  return post("/auth/magic/verify", { access_token }, undefined, remoteAddress);
}

describe("an authenticator app (TOTP) as a second factor", () => {
  it("is enabled by a first code and gives ten different recovery codes once", async () => {
    const { user, recoveryCodes } = await withTotp("totp-on@example.com");
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const status = await t.app.inject({ method: "GET", url: "/auth/2fa", headers: bearer(user.token) });
    expect(status.json().data).toEqual({ totp: true, passkeys: [], recovery_codes_left: 10 });
    const session = await t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(user.token) });
    expect(session.json().data.second_factor).toBe(true);
    expect((await post("/auth/2fa/totp/setup", {}, user.token)).statusCode).toBe(409);
  });

  it("refuses a wrong first code and stays off", async () => {
    const user = await signIn(t.app, "totp-wrong@example.com");
    const { secret } = (await post("/auth/2fa/totp/setup", {}, user.token)).json().data;
    const wrong = String((Number(totpCode(secret, totpStep())) + 1) % 1_000_000).padStart(6, "0");
    const refused = await post("/auth/2fa/totp/enable", { code: wrong }, user.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().success).toBe(false);
    const status = await t.app.inject({ method: "GET", url: "/auth/2fa", headers: bearer(user.token) });
    expect(status.json().data.totp).toBe(false);
    expect((await followLink("totp-wrong@example.com")).json().data.token).toEqual(expect.any(String));
  });

  it("makes the link answer a challenge, and the challenge plus a code the token, each code once", async () => {
    const { secret, step } = await withTotp("totp-sign-in@example.com");
    const answer = (await followLink("totp-sign-in@example.com")).json().data;
    expect(answer).toEqual({
      two_factor_required: true,
      challenge: expect.any(String),
      methods: ["totp", "recovery_code"],
      passkey_options: null,
    });
    expect(answer.token).toBeUndefined();
    // The code that enabled the app was spent then.
    const replayed = await post("/auth/2fa/verify", {
      challenge: answer.challenge,
      code: totpCode(secret, step),
    });
    expect(replayed.statusCode).toBe(401);
    const next = totpCode(secret, step + 1);
    const verified = await post("/auth/2fa/verify", { challenge: answer.challenge, code: next });
    expect(verified.statusCode).toBe(200);
    const { token, email } = verified.json().data;
    expect(email).toBe("totp-sign-in@example.com");
    const session = await t.app.inject({ method: "GET", url: "/auth/session", headers: bearer(token) });
    expect(session.statusCode).toBe(200);
    // The challenge is spent, and the code too, even with a new challenge.
    expect((await post("/auth/2fa/verify", { challenge: answer.challenge, code: next })).statusCode).toBe(
      401,
    );
    const again = (await followLink("totp-sign-in@example.com")).json().data;
    expect((await post("/auth/2fa/verify", { challenge: again.challenge, code: next })).statusCode).toBe(401);
  });

  it("takes each recovery code once, typed with or without its dash", async () => {
    const { recoveryCodes } = await withTotp("totp-recovery@example.com");
    const first = (await followLink("totp-recovery@example.com")).json().data;
    const code = recoveryCodes[0]!.toUpperCase().replace("-", " ");
    expect(
      (await post("/auth/2fa/verify", { challenge: first.challenge, recovery_code: code })).statusCode,
    ).toBe(200);
    const second = (await followLink("totp-recovery@example.com")).json().data;
    const reused = await post("/auth/2fa/verify", {
      challenge: second.challenge,
      recovery_code: recoveryCodes[0],
    });
    expect(reused.statusCode).toBe(401);
    expect(
      (await post("/auth/2fa/verify", { challenge: second.challenge, recovery_code: recoveryCodes[1] }))
        .statusCode,
    ).toBe(200);
  });

  it("answers 429 after five wrong codes per account, even to the right code, across addresses", async () => {
    const { secret, step } = await withTotp("totp-limit@example.com");
    const { challenge } = (await followLink("totp-limit@example.com")).json().data;
    for (let i = 0; i < FACTOR_FAILURES_ALLOWED; i++) {
      const wrong = await post(
        "/auth/2fa/verify",
        { challenge, code: "000000" },
        undefined,
        `127.0.1.${i + 1}`,
      );
      expect(wrong.statusCode).toBe(401);
    }
    const right = await post(
      "/auth/2fa/verify",
      { challenge, code: totpCode(secret, step + 1) },
      undefined,
      "127.0.2.1",
    );
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ success: false, message: expect.stringMatching(/too many wrong codes/i) });
  });

  it("answers 429 after five wrong codes from one address, whichever accounts they aim at", async () => {
    const address = "127.0.3.3";
    const targets = await Promise.all([1, 2, 3].map((n) => withTotp(`totp-address-${n}@example.com`)));
    const challenges = [];
    for (const [n] of targets.entries())
      challenges.push((await followLink(`totp-address-${n + 1}@example.com`)).json().data.challenge);
    for (let i = 0; i < FACTOR_FAILURES_ALLOWED; i++)
      expect(
        (await post("/auth/2fa/verify", { challenge: challenges[i % 2], code: "000000" }, undefined, address))
          .statusCode,
      ).toBe(401);
    const third = targets[2]!;
    const limited = await post(
      "/auth/2fa/verify",
      { challenge: challenges[2], code: totpCode(third.secret, third.step + 1) },
      undefined,
      address,
    );
    expect(limited.statusCode).toBe(429);
  });

  it("is turned off by a current code, and signing in is one step again", async () => {
    const { user, secret, step } = await withTotp("totp-off@example.com");
    expect((await post("/auth/2fa/totp/disable", { code: "123456x" }, user.token)).statusCode).toBe(400);
    expect(
      (await post("/auth/2fa/totp/disable", { code: totpCode(secret, step) }, user.token)).statusCode,
    ).toBe(400);
    expect(
      (await post("/auth/2fa/totp/disable", { code: totpCode(secret, step + 1) }, user.token)).statusCode,
    ).toBe(200);
    const status = await t.app.inject({ method: "GET", url: "/auth/2fa", headers: bearer(user.token) });
    expect(status.json().data).toEqual({ totp: false, passkeys: [], recovery_codes_left: 0 });
    expect((await followLink("totp-off@example.com")).json().data.token).toEqual(expect.any(String));
  });

  it("is not changed with an API token", async () => {
    const user = await signIn(t.app, "totp-script@example.com");
    const apiToken = (
      await t.app.inject({ method: "GET", url: "/account/api-token", headers: bearer(user.token) })
    ).json().data.token;
    expect((await post("/auth/2fa/totp/setup", {}, apiToken)).statusCode).toBe(403);
  });

  it("refuses a challenge that was never handed out", async () => {
    const refused = await post("/auth/2fa/verify", { challenge: "made-up-challenge", code: "123456" });
    expect(refused.statusCode).toBe(401);
    expect(
      (await post("/auth/2fa/verify", { challenge: "x", code: "123456", recovery_code: "abcde-fghij" }))
        .statusCode,
    ).toBe(400);
  });
});
