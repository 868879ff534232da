import { rmSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { migrationsFolder } from "./client.ts";
import { blankDatabase, migrationsBefore } from "./migration-install.ts";
import { ALL_SUBUSERS, NO_SUBUSER } from "./schema.ts";

const USER = "00000000-0000-4000-8000-000000000001";
const SUBUSER = "00000000-0000-4000-8000-000000000002";

// Each domain's sum over each span, for one credential or all, straight from the rollups.
const FROM_ROLLUPS = `
  SELECT c.id::text AS subuser_id, s.span, to_char(usage_span_start(r.day, s.span), 'YYYY-MM-DD') AS start,
         r.domain,
         coalesce(sum(r.bytes) FILTER (WHERE r.proxy_type = 'mobile'), 0)::text AS mobile_bytes,
         coalesce(sum(r.bytes) FILTER (WHERE r.proxy_type = 'dc'), 0)::text AS dc_bytes,
         coalesce(sum(r.requests) FILTER (WHERE r.proxy_type = 'mobile'), 0)::text AS mobile_requests,
         coalesce(sum(r.requests) FILTER (WHERE r.proxy_type = 'dc'), 0)::text AS dc_requests
    FROM usage_rollups r
   CROSS JOIN LATERAL (VALUES (r.subuser_id), ('${ALL_SUBUSERS}'::uuid)) AS c(id)
   CROSS JOIN (VALUES (1), (7), (28)) AS s(span)
   GROUP BY 1, 2, 3, 4
   ORDER BY 1, 2, 3, 4`;

const KEPT = `
  SELECT subuser_id::text, span, to_char(start, 'YYYY-MM-DD') AS start, domain, mobile_bytes::text,
         dc_bytes::text, mobile_requests::text, dc_requests::text
    FROM usage_domain_totals
   ORDER BY 1, 2, 3, 4`;

describe("migration 0030 on an install with usage", { timeout: 120_000 }, () => {
  it("fills the domain totals from the rollups already written, and the triggers keep them after", async () => {
    const install = await blankDatabase();
    const folder = migrationsBefore("0030_usage-domain-totals");
    try {
      await install.migrate(folder);
      await install.query(`INSERT INTO users (id, email) VALUES ('${USER}', 'old@example.com')`);
      await install.query(
        `INSERT INTO subusers (id, user_id, label, username, password_hash, password_enc)
         VALUES ('${SUBUSER}', '${USER}', 'crawler', 'sub-crawler', 'unused', 'unused')`,
      );
      // 70 days of 7 domains, both proxy types, both credentials, some combinations missing.
      await install.query(
        `INSERT INTO usage_rollups (user_id, day, domain, proxy_type, subuser_id, bytes, requests)
         SELECT '${USER}', DATE '2025-01-01' + d, 'd' || k || '.test', t, c, (d + 1) * (k + 3) * 1000, d + k + 1
           FROM generate_series(0, 69) AS d, generate_series(0, 6) AS k, unnest(ARRAY['mobile', 'dc']) AS t,
                unnest(ARRAY['${NO_SUBUSER}', '${SUBUSER}']::uuid[]) AS c
          WHERE (d * 5 + k * 3 + length(t) + ascii(c::text)) % 3 <> 0`,
      );
      await install.migrate(migrationsFolder);
      const backfilled = await install.query(KEPT);
      expect(backfilled.length).toBeGreaterThan(0);
      expect(backfilled).toEqual(await install.query(FROM_ROLLUPS));

      await install.query(`UPDATE usage_rollups SET bytes = bytes + 7 WHERE domain = 'd1.test'`);
      await install.query(`DELETE FROM usage_rollups WHERE domain = 'd2.test' AND day < DATE '2025-02-01'`);
      await install.query(
        `UPDATE usage_rollups SET day = day + 100 WHERE domain = 'd3.test' AND proxy_type = 'dc'`,
      );
      // Totals whose rows all went stay behind at zero; every other one is exact.
      const kept = await install.query(KEPT);
      const nonZero = kept.filter((row) =>
        ["mobile_bytes", "dc_bytes", "mobile_requests", "dc_requests"].some((k) => row[k] !== "0"),
      );
      expect(nonZero.length).toBeLessThan(kept.length);
      expect(nonZero).toEqual(await install.query(FROM_ROLLUPS));
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await install.close();
    }
  });
});
