import { FACTOR_FAILURES_ALLOWED } from "@bytetoll/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { totpCode, totpStep } from "../../../src/modules/two-factor/totp.ts";
import { bearer, latestLinkToken, signIn } from "../../helpers/sign-in.ts";
import { createTwoInstances, type TestApp, type TwoInstances } from "../../helpers/test-app.ts";

// Wrong codes sent to two instances at once are counted together only on PostgreSQL (PGlite runs
// one statement at a time), with Redis shared as in production when REDIS_URL is set.
const postgres = process.env.DATABASE_URL;
const shared: Record<string, string> = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};

let instances: TwoInstances | undefined;
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  if (!postgres) return;
  instances = await createTwoInstances(postgres, "bytetoll_factor", 12, shared);
  ({ one, two } = instances);
});
afterAll(async () => {
  await instances?.close();
});

describe("wrong second-factor codes on two instances", () => {
  it.skipIf(!postgres)(
    "are counted together: of 12 sent at once, 5 are judged wrong and 7 refused",
    async () => {
      const email = "two-instances-factor@example.com";
      const user = await signIn(one.app, email);
      const { secret } = (
        await one.app.inject({ method: "POST", url: "/auth/2fa/totp/setup", headers: bearer(user.token) })
      ).json().data;
      const step = totpStep();
      const enabled = await two.app.inject({
        method: "POST",
        url: "/auth/2fa/totp/enable",
        headers: bearer(user.token),
        payload: { code: totpCode(secret, step) },
      });
      expect(enabled.statusCode).toBe(200);
      await one.app.inject({
        method: "POST",
        url: "/auth/login",
        payload: { email },
        remoteAddress: "127.0.9.1",
      });
      const verified = await one.app.inject({
        method: "POST",
        url: "/auth/magic/verify",
        payload: { access_token: await latestLinkToken(one.app, email) },
        remoteAddress: "127.0.9.1",
      });
      const { challenge } = verified.json().data;

      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? two : one).app.inject({
            method: "POST",
            url: "/auth/2fa/verify",
            payload: { challenge, code: "000000" },
            remoteAddress: `127.0.10.${i + 1}`,
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses.filter((status) => status === 401)).toHaveLength(FACTOR_FAILURES_ALLOWED);
      expect(statuses.filter((status) => status === 429)).toHaveLength(12 - FACTOR_FAILURES_ALLOWED);
      const right = await two.app.inject({
        method: "POST",
        url: "/auth/2fa/verify",
        payload: { challenge, code: totpCode(secret, step + 1) },
        remoteAddress: "127.0.11.1",
      });
      expect(right.statusCode).toBe(429);
    },
  );
});
