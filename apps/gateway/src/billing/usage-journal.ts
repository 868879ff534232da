import { randomUUID } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type { ProxyType } from "../base/tariff.ts";
import { exitKey, type UsageRow } from "../relay/meter.ts";
import type { ExitBooking } from "../route/upstream-health.ts";

/** How often metered bytes are appended to the journal: what a kill -9 can leave unbilled. */
export const JOURNAL_INTERVAL_MS = 50;

/** Usage of one batch id, as the journal holds it. */
export interface JournaledBatch {
  id: string;
  rows: UsageRow[];
}

type Delta = [
  userId: string,
  day: string,
  domain: string,
  proxyType: ProxyType,
  bytes: number,
  requests: number,
  /** Absent in lines written before sub-users existed: the account's own usage. */
  subuserId?: string | null,
  /** Absent in lines written before exits were booked: [key, name, pool, cost per GB]. */
  exit?: [key: string, name: string, pool: string, costPerGbMicros: number] | null,
];

const exitOf = (exit: Delta[7]): ExitBooking | null =>
  exit ? { key: exit[0], name: exit[1], pool: exit[2], costPerGbMicros: exit[3] } : null;
const exitDelta = (exit: ExitBooking | null | undefined): Delta[7] =>
  exit ? [exit.key, exit.name, exit.pool, exit.costPerGbMicros] : null;

function rowKey(row: UsageRow): string {
  return `${row.userId}\u0000${row.subuserId ?? ""}\u0000${row.day}\u0000${row.domain}\u0000${row.proxyType}\u0000${exitKey(row.exit)}`;
}

/** Sums the journal's records per batch id and row; a torn last line (crash mid-write) is skipped. */
function readBatches(text: string): JournaledBatch[] {
  const batches = new Map<string, Map<string, UsageRow>>();
  for (const line of text.split("\n")) {
    let record: { b: string; r: Delta[] };
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof record?.b !== "string" || !Array.isArray(record.r)) continue;
    const rows = batches.get(record.b) ?? new Map<string, UsageRow>();
    batches.set(record.b, rows);
    for (const [userId, day, domain, proxyType, bytes, requests, subuserId = null, exit] of record.r) {
      const row = { userId, subuserId, day, domain, proxyType, bytes, requests, exit: exitOf(exit) };
      const existing = rows.get(rowKey(row));
      if (existing) {
        existing.bytes += bytes;
        existing.requests += requests;
      } else {
        rows.set(rowKey(row), row);
      }
    }
  }
  return [...batches].map(([id, rows]) => ({ id, rows: [...rows.values()] }));
}

/**
 * An append-only file of metered usage, written every JOURNAL_INTERVAL_MS under the id of the
 * batch the bytes will be committed in. After a crash, the batches found here are committed at
 * start; a batch that was already committed is a no-op (usage_batches holds its id), so nothing
 * counts twice. The file is rewritten with only the uncommitted batches after every flush, so it
 * holds at most what the database has not taken yet. Writes are not fsynced: a process crash
 * keeps what the kernel got; a machine crash may lose the last moments.
 */
export class UsageJournal {
  private fd: number;
  /** What of each live meter row is already in the file. */
  private readonly written = new WeakMap<UsageRow, { bytes: number; requests: number }>();
  private readonly file: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, "usage-journal.ndjson");
    this.fd = openSync(this.file, "a");
  }

  /** The gateway instance id kept in the journal's directory, so a restart finds the leases of
   * its previous run (created on first use). */
  static instanceId(dir: string): string {
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "instance-id");
    try {
      const id = readFileSync(file, "utf8").trim();
      if (id !== "") return id;
    } catch {
      // first start
    }
    const id = randomUUID();
    writeFileSync(file, `${id}\n`);
    return id;
  }

  /** Takes over another instance's journal (`dir`, as given to its constructor): its batches are
   * appended here under their own ids, and its file removed, so they are committed with this
   * instance's own at start; a batch it had committed already stays a no-op. */
  adopt(dir: string): void {
    const file = join(dir, "usage-journal.ndjson");
    if (file === this.file || !existsSync(file)) return;
    const text = readFileSync(file, "utf8");
    if (text.length > 0) writeSync(this.fd, text.endsWith("\n") ? text : `${text}\n`);
    unlinkSync(file);
  }

  /** Batches a previous run journaled but may not have committed. */
  recovered(): JournaledBatch[] {
    return readBatches(readFileSync(this.file, "utf8"));
  }

  /** Appends what the rows counted since they were last written, under `batchId`. */
  record(batchId: string, rows: Iterable<UsageRow>): void {
    const deltas: Delta[] = [];
    for (const row of rows) {
      const written = this.written.get(row) ?? { bytes: 0, requests: 0 };
      if (row.bytes === written.bytes && row.requests === written.requests) continue;
      deltas.push([
        row.userId,
        row.day,
        row.domain,
        row.proxyType,
        row.bytes - written.bytes,
        row.requests - written.requests,
        row.subuserId,
        exitDelta(row.exit),
      ]);
      this.written.set(row, { bytes: row.bytes, requests: row.requests });
    }
    if (deltas.length > 0) writeSync(this.fd, `${JSON.stringify({ b: batchId, r: deltas })}\n`);
  }

  /** Replaces the file by exactly these batches (everything not committed yet). */
  rewrite(batches: JournaledBatch[]): void {
    const text = batches
      .filter((batch) => batch.rows.length > 0)
      .map((batch) => {
        const rows = batch.rows.map((r) => [
          r.userId,
          r.day,
          r.domain,
          r.proxyType,
          r.bytes,
          r.requests,
          r.subuserId,
          exitDelta(r.exit),
        ]);
        return `${JSON.stringify({ b: batch.id, r: rows })}\n`;
      })
      .join("");
    const next = `${this.file}.next`;
    writeFileSync(next, text);
    renameSync(next, this.file);
    closeSync(this.fd);
    this.fd = openSync(this.file, "a");
  }

  close(): void {
    closeSync(this.fd);
  }
}
