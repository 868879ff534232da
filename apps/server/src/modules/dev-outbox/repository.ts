import type { Database } from "@bytetoll/db";

export interface OutboxRow {
  id: number;
  to: string;
  subject: string;
  text: string;
  link: string | null;
  created_at: string;
}

/** Newest first; optionally only the messages sent to one address. */
export async function listOutboxMessages(
  database: Database,
  to: string | undefined,
  limit = 100,
): Promise<OutboxRow[]> {
  const rows = await database.query<
    Omit<OutboxRow, "created_at" | "id"> & { id: string | number; created_at: Date | string }
  >(
    `SELECT id, "to", subject, text, link, created_at FROM outbox_messages
      WHERE ($1::text IS NULL OR "to" = $1) ORDER BY id DESC LIMIT $2`,
    [to ?? null, limit],
  );
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    created_at: new Date(row.created_at).toISOString(),
  }));
}
