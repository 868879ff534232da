import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { UsageRow } from "../relay/meter.ts";
import { UsageJournal } from "./usage-journal.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const row = (bytes: number, costPerGbMicros: number | null): UsageRow => ({
  userId: "00000000-0000-4000-8000-000000000001",
  subuserId: null,
  day: "2026-11-28",
  domain: "site.test",
  proxyType: "mobile",
  bytes,
  requests: 1,
  exit: costPerGbMicros === null ? null : { key: "exit-1", name: "tiny", pool: "mobile", costPerGbMicros },
});

describe("the usage journal", () => {
  it("keeps each row's exit and its cost through a crash, rows at two costs apart", () => {
    const dir = mkdtempSync(join(tmpdir(), "journal-exit-"));
    dirs.push(dir);
    const journal = new UsageJournal(dir);
    const before = row(1_000, 2_000_000);
    const after = row(300, 500_000);
    journal.record("batch-1", [before, after, row(7, null)]);
    before.bytes += 24;
    journal.record("batch-1", [before]);
    journal.close();

    const [batch] = new UsageJournal(dir).recovered();
    expect(batch?.id).toBe("batch-1");
    const byCost = new Map(batch?.rows.map((r) => [r.exit?.costPerGbMicros ?? null, r.bytes]));
    expect(byCost).toEqual(
      new Map<number | null, number>([
        [2_000_000, 1_024],
        [500_000, 300],
        [null, 7],
      ]),
    );
    expect(batch?.rows.find((r) => r.exit)?.exit).toMatchObject({
      key: "exit-1",
      name: "tiny",
      pool: "mobile",
    });
  });
});
