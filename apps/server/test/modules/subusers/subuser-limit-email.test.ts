import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../../helpers/sign-in.ts";
import { type SmtpInbox, signInOverSmtp, startSmtpInbox } from "../../helpers/smtp-inbox.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { nothingLeftToSend, startReceiver } from "../webhooks/receiver.ts";

let inbox: SmtpInbox;
let first: TestApp;
let second: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  const smtp = {
    SMTP_URL: inbox.url,
    MAIL_FROM: "ByteToll <alerts@bytetoll.test>",
    EGRESS_ALLOW: "127.0.0.0/8",
    WEBHOOK_POLL_MS: "50",
  };
  first = await createTestApp(smtp);
  // A second instance over the same database: both hear every change.
  second = await createTestApp(smtp, { database: first.database });
});
afterAll(async () => {
  await second?.close();
  await first?.close();
  await inbox?.close();
});

/**
 * Runs `change`, then waits until the owner's sub-user check after it is over. Every instance
 * queues that check on each owner change as one job keyed by the owner, which the job runner
 * deletes once it has run (it reruns, rather than deletes, one queued again while it ran). So:
 * no check queued before, one queued after the change, and none again means it has run, e-mail
 * and webhook event included.
 */
async function checkedAfter(ownerId: string, change: () => Promise<void>) {
  const queued = async () => {
    const [row] = await first.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM jobs WHERE name = 'subusers.limit-check' AND key = $1",
      [ownerId],
    );
    return row?.n;
  };
  const poll = { timeout: 10_000, interval: 20 };
  await expect.poll(queued, poll).toBe(0);
  await change();
  await expect.poll(queued, poll).toBe(1);
  await expect.poll(queued, poll).toBe(0);
}
const limitMails = (email: string) =>
  inbox.to(email).filter((mail) => mail.body.includes("has used its limit"));

/** What the gateway's flush does in one transaction: the sub-user's use grows, the owner is debited. */
async function flushUsage(ownerId: string, subuserId: string, bytes: number) {
  await first.database.db.transaction(async (tx) => {
    await tx.execute(
      sql`UPDATE subusers SET used_bytes = CASE WHEN period_start = subuser_period_start(limit_period)
         THEN used_bytes + ${bytes}::bigint ELSE ${bytes}::bigint END, period_start = subuser_period_start(limit_period)
        WHERE id = ${subuserId}`,
    );
    await tx.execute(
      sql`UPDATE users SET balance_bytes = balance_bytes - ${bytes}::bigint WHERE id = ${ownerId}`,
    );
  });
}

describe("the sub-user limit e-mail and webhook", () => {
  it("reach the owner once per period when a sub-user reaches its limit, from one of two instances", async () => {
    const email = "subuser-limit-owner@example.com";
    const owner = await signInOverSmtp(first.app, inbox, email);
    let secret = "";
    const receiver = await startReceiver(() => secret);
    const hooks = () => receiver.received.filter((r) => r.json.type === "subuser.limit_reached");
    try {
      const endpoint = await first.app.inject({
        method: "POST",
        url: "/webhooks",
        headers: bearer(owner.token),
        payload: { url: receiver.url, events: ["subuser.limit_reached"] },
      });
      secret = endpoint.json().data.secret;
      const created = await first.app.inject({
        method: "POST",
        url: "/subusers",
        headers: bearer(owner.token),
        payload: { label: "nightly <crawler>", limit_gb: 0.05, limit_period: "day" },
      });
      const subuser = created.json().data;
      const unlimited = (
        await first.app.inject({
          method: "POST",
          url: "/subusers",
          headers: bearer(owner.token),
          payload: { label: "no limit" },
        })
      ).json().data;

      await checkedAfter(owner.id, async () => {
        await flushUsage(owner.id, subuser.id, 30_000_000);
        await flushUsage(owner.id, unlimited.id, 900_000_000);
      });
      expect(limitMails(email)).toHaveLength(0);
      expect(hooks()).toHaveLength(0);

      await flushUsage(owner.id, subuser.id, 20_000_000);
      await expect.poll(() => limitMails(email).length, { timeout: 5_000 }).toBe(1);
      const [mail] = limitMails(email);
      expect(mail?.body).toContain("Subject: Sub-user nightly <crawler> reached its 50 MB limit");
      // The amount as the Sub-users page shows it.
      expect(mail?.body).toContain("has used its limit of 50 MB today");
      expect(mail?.body).toContain("today (it restarts at 00:00 UTC)");
      expect(mail?.body).toContain("<strong>nightly &lt;crawler&gt;</strong>");
      await expect.poll(() => hooks().length, { timeout: 5_000 }).toBe(1);
      const today = new Date().toISOString().slice(0, 10);
      expect(hooks()[0]?.verified).toBe(true);
      expect(hooks()[0]?.json.data).toEqual({
        subuser_id: subuser.id,
        label: "nightly <crawler>",
        limit_gb: 0.05,
        limit_bytes: 50_000_000,
        limit_period: "day",
        period_start: today,
      });

      // More use in the same period, seen by both instances: no second e-mail or event.
      await checkedAfter(owner.id, () => flushUsage(owner.id, subuser.id, 5_000_000));
      await nothingLeftToSend(first.database, receiver.url);
      expect(limitMails(email)).toHaveLength(1);
      expect(hooks()).toHaveLength(1);

      // A raised limit reached again in the same period is told again.
      const raised = await first.app.inject({
        method: "PATCH",
        url: `/subusers/${subuser.id}`,
        headers: bearer(owner.token),
        payload: { limit_gb: 0.06 },
      });
      expect(raised.statusCode).toBe(200);
      await flushUsage(owner.id, subuser.id, 6_000_000);
      await expect.poll(() => hooks().length, { timeout: 5_000 }).toBe(2);
      expect(hooks()[1]?.json.data).toMatchObject({ limit_gb: 0.06, period_start: today });
      await expect.poll(() => limitMails(email).length, { timeout: 5_000 }).toBe(2);

      // The next period (here: yesterday's period was the one told, and its event yesterday's) is
      // told again once reached.
      await first.database.query(
        "UPDATE subusers SET period_start = period_start - 1, limit_notified_period = period_start - 1 WHERE id = $1",
        [subuser.id],
      );
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      await first.database.query(
        "UPDATE webhook_events SET dedupe_key = replace(dedupe_key, $2, $3) WHERE user_id = $1",
        [owner.id, today, yesterday],
      );
      await flushUsage(owner.id, subuser.id, 60_000_000);
      await expect.poll(() => limitMails(email).length, { timeout: 5_000 }).toBe(3);
      await expect.poll(() => hooks().length, { timeout: 5_000 }).toBe(3);
      await nothingLeftToSend(first.database, receiver.url);
      expect(new Set(hooks().map((r) => r.json.id)).size).toBe(3);
    } finally {
      await receiver.close();
    }
  });
});
