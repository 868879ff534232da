import { accountDisabledMessage } from "@bytetoll/contracts";
import { createThrowawayPostgres, type TestDatabase } from "@bytetoll/db/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customerWithoutEmail } from "../orders/helpers.ts";
import { ADMIN_TOKEN, tokenHeaders } from "./helpers.ts";

const postgres = process.env.DATABASE_URL;

let database: TestDatabase;
let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  if (!postgres) return;
  database = await createThrowawayPostgres(postgres, "bytetoll_admin", 8);
  one = await createTestApp({ ADMIN_TOKEN }, { database });
  two = await createTestApp({ ADMIN_TOKEN }, { database });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await database?.close();
});

/** Polls `two` until `status` or the deadline; returns how long it took. */
async function until(headers: Record<string, string>, status: number, deadlineMs = 5_000): Promise<number> {
  const started = Date.now();
  const response = await vi.waitFor(
    async () => {
      const answer = await two.app.inject({ method: "GET", url: "/account/status", headers });
      if (answer.statusCode !== status) throw new Error(`still ${answer.statusCode} after ${deadlineMs} ms`);
      return answer;
    },
    { timeout: deadlineMs, interval: 20 },
  );
  const took = Date.now() - started;
  if (status === 403)
    expect(response.json()).toEqual({
      success: false,
      message: accountDisabledMessage(two.app.config.SUPPORT_CONTACT),
    });
  return took;
}

describe("two server instances on one PostgreSQL", () => {
  it.skipIf(!postgres)(
    "the other instance refuses a disabled account within moments, and serves it again once enabled",
    async () => {
      const dave = await customerWithoutEmail(database, one.config.JWT_SECRET, "dave@example.com");
      // Both instances have the session cached before the change.
      expect(
        (await two.app.inject({ method: "GET", url: "/account/status", headers: dave.headers })).statusCode,
      ).toBe(200);
      const disabled = await one.app.inject({
        method: "POST",
        url: `/admin/customers/${dave.id}/disable`,
        headers: tokenHeaders,
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      expect(await until(dave.headers, 403)).toBeLessThan(2_000);
      const enabled = await one.app.inject({
        method: "POST",
        url: `/admin/customers/${dave.id}/enable`,
        headers: tokenHeaders,
      });
      expect(enabled.statusCode).toBe(200);
      expect(await until(dave.headers, 200)).toBeLessThan(2_000);
    },
  );

  it.skipIf(!postgres)(
    "refuses it there too when disabled_at is set by hand (the users_changed feed)",
    async () => {
      const erin = await customerWithoutEmail(database, one.config.JWT_SECRET, "erin@example.com");
      expect(
        (await two.app.inject({ method: "GET", url: "/account/status", headers: erin.headers })).statusCode,
      ).toBe(200);
      await database.query("UPDATE users SET disabled_at = now() WHERE id = $1", [erin.id]);
      expect(await until(erin.headers, 403)).toBeLessThan(2_000);
    },
  );
});
