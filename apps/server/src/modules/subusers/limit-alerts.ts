import type { SubuserLimitPeriod } from "@bytetoll/contracts";
import { parseChange } from "@bytetoll/db";
import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { subuserLimitReachedEvent } from "../webhooks/index.ts";
import { subuserLimitEmail } from "./limit-email.ts";

/** An owner's sub-users are checked this long after a change (a gateway flushes every 1–2 s), once
 * for all the changes meanwhile. */
const CHECK_DELAY_MS = 1_000;
const CHECK_JOB = "subusers.limit-check";

type ReachedRow = {
  id: string;
  email: string;
  label: string;
  limit_bytes: string | number;
  limit_period: SubuserLimitPeriod;
  period_start: string;
  previous: string | null;
};

/**
 * One e-mail per period to the owner when a sub-user reaches its limit, and the
 * `subuser.limit_reached` webhook. The gateway's flush debits the owner in the transaction that
 * adds to the sub-user's use, so the owner's "user:<id>" on the change feed is the moment to look.
 * Every instance hears it and queues a check keyed by the owner, so one instance runs it; the
 * conditional UPDATE that marks the period as told lets exactly one check send besides, and the
 * webhook event is recorded in the same transaction (keyed by the period, so an e-mail retried
 * later raises nothing twice). A failed e-mail is retried by the job runner with back-off.
 */
async function subuserLimitAlertsPlugin(app: FastifyInstance) {
  const markReached = (userId: string) =>
    app.database.db.transaction(async (tx) => {
      const { rows } = await tx.execute<ReachedRow>(sql`
        UPDATE subusers s SET limit_notified_period = s.period_start
          FROM users u, (SELECT id, limit_notified_period AS previous FROM subusers WHERE user_id = ${userId}) p
         WHERE s.user_id = ${userId} AND u.id = s.user_id AND p.id = s.id
           AND s.limit_bytes IS NOT NULL AND s.used_bytes >= s.limit_bytes
           AND s.period_start = subuser_period_start(s.limit_period)
           AND s.limit_notified_period IS DISTINCT FROM s.period_start
        RETURNING s.id, u.email, s.label, s.limit_bytes, s.limit_period,
                  to_char(s.period_start, 'YYYY-MM-DD') AS period_start, p.previous::text`);
      for (const row of rows) {
        const subuser = {
          id: row.id,
          label: row.label,
          limitBytes: Number(row.limit_bytes),
          period: row.limit_period,
        };
        await app.webhooks.service.emit(subuserLimitReachedEvent(userId, subuser, row.period_start), tx);
      }
      return rows;
    });

  async function check(userId: string): Promise<void> {
    const reached = await markReached(userId);
    if (reached.length > 0) app.webhooks.dispatcher.kick();
    const unsent: unknown[] = [];
    for (const row of reached) {
      const message = subuserLimitEmail(
        row.email,
        { label: row.label, limitBytes: Number(row.limit_bytes), period: row.limit_period },
        app.config.APP_URL,
      );
      try {
        await app.mailer.send(message);
      } catch (error) {
        await app.database.query("UPDATE subusers SET limit_notified_period = $2::date WHERE id = $1", [
          row.id,
          row.previous,
        ]);
        unsent.push(error);
      }
    }
    if (unsent.length > 0) throw new AggregateError(unsent, "sub-user limit e-mail not sent; retried");
  }

  app.jobs.handle(CHECK_JOB, async ({ payload }) => {
    if (typeof payload.userId === "string") await check(payload.userId);
  });
  app.changeFeed.onChange((payload) => {
    const change = payload === null ? null : parseChange(payload);
    if (change?.kind !== "user") return;
    app.jobs
      .enqueue(CHECK_JOB, { key: change.key, payload: { userId: change.key }, delayMs: CHECK_DELAY_MS })
      .catch((error: unknown) =>
        app.log.warn({ err: error, userId: change.key }, "sub-user limit check not queued"),
      );
  });
}

export default fp(subuserLimitAlertsPlugin, {
  name: "subuser-limit-alerts",
  dependencies: ["jobs", "change-feed", "webhooks"],
});
