import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "mcp",
    environment: "node",
    // On PostgreSQL, test databases are copies of one migrated template per run.
    globalSetup: ["../../packages/db/src/postgres-template.setup.ts"],
    include: ["test/**/*.test.ts"],
    // Every file opens and closes its own databases: the files share their worker's modules.
    isolate: false,
    // Each file starts a real install (API, gateway, database); PGlite start-up dominates.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
