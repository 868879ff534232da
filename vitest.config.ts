import { defineConfig } from "vitest/config";

// The dashboard's component tests render against a stubbed API (apps/web/src/test/api-stub.ts)
// and never reach a database: with DATABASE_URL set (the PostgreSQL pass of `npm test`) they would
// only repeat the embedded pass, so they run there unless E2E_ALL=1 (see also apps/web/e2e).
const componentTests = !process.env.DATABASE_URL || process.env.E2E_ALL === "1" ? ["apps/web"] : [];

export default defineConfig({
  test: {
    projects: [
      "packages/*",
      "apps/server",
      "apps/gateway",
      "apps/gateway/vitest.own-process.config.ts",
      "apps/mcp",
      ...componentTests,
      "apps/web/e2e",
    ],
    // Most test time is spent waiting on databases, sockets and the browser, not the CPU: on a
    // 2-core machine Vitest's default (cores − 1 = one file at a time) leaves the CPU idle.
    maxWorkers: 3,
  },
});
