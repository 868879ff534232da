import type { Db, Tx } from "@bytetoll/db";
import { sql } from "drizzle-orm";

/** Either the database or an open transaction: events raised inside another module's
 * transaction (a deal's activation) commit or roll back with it. */
export type Executor = Db | Tx;

export type EndpointRow = {
  id: string;
  url: string;
  events: string[];
  secret_enc: string;
  secret_last4: string;
  created_at: Date | string;
};

export type DueDelivery = {
  id: string;
  claim: string;
  attempts: number;
  url: string;
  secret_enc: string;
  event_id: string;
  type: string;
  data: Record<string, unknown>;
  created: Date | string;
};

export type DeliveryRow = {
  id: string;
  event_id: string;
  type: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  next_attempt_at: Date | string;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | string | null;
  created_at: Date | string;
};

const ENDPOINT_COLUMNS = sql`id, url, events, secret_enc, secret_last4, created_at`;

export function createWebhookRepository(db: Db) {
  return {
    transaction: <T>(work: (tx: Tx) => Promise<T>) => db.transaction(work),

    /** Holds the account's row until the transaction ends: concurrent creations count in turn. */
    async lockUser(tx: Tx, userId: string): Promise<void> {
      await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
    },

    async count(tx: Tx, userId: string): Promise<number> {
      const { rows } = await tx.execute<{ n: number | string }>(
        sql`SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ${userId}`,
      );
      return Number(rows[0]?.n ?? 0);
    },

    async insert(
      tx: Tx,
      userId: string,
      values: Omit<EndpointRow, "id" | "created_at">,
    ): Promise<EndpointRow> {
      const { rows } = await tx.execute<EndpointRow>(sql`
        INSERT INTO webhook_endpoints (user_id, url, events, secret_enc, secret_last4)
        VALUES (${userId}, ${values.url}, string_to_array(${values.events.join(",")}, ','), ${values.secret_enc}, ${values.secret_last4})
        RETURNING ${ENDPOINT_COLUMNS}`);
      return rows[0] as EndpointRow;
    },

    async list(userId: string): Promise<EndpointRow[]> {
      const { rows } = await db.execute<EndpointRow>(
        sql`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE user_id = ${userId} ORDER BY created_at, id`,
      );
      return rows;
    },

    async find(userId: string, id: string): Promise<EndpointRow | undefined> {
      const { rows } = await db.execute<EndpointRow>(
        sql`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE user_id = ${userId} AND id = ${id}`,
      );
      return rows[0];
    },

    async remove(userId: string, id: string): Promise<boolean> {
      const { rows } = await db.execute(
        sql`DELETE FROM webhook_endpoints WHERE user_id = ${userId} AND id = ${id} RETURNING id`,
      );
      return rows.length > 0;
    },

    /** The endpoint's last 100 deliveries, newest first. */
    async deliveries(endpointId: string): Promise<DeliveryRow[]> {
      const { rows } = await db.execute<DeliveryRow>(sql`
        SELECT d.id::text AS id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at,
               d.last_status_code, d.last_error, d.delivered_at, d.created_at
          FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
         WHERE d.endpoint_id = ${endpointId}
         ORDER BY d.id DESC LIMIT 100`);
      return rows;
    },
  };
}

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;
