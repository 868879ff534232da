import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    // On PostgreSQL, test databases are copies of one migrated template per run.
    globalSetup: ["../../packages/db/src/postgres-template.setup.ts"],
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Each file builds its own app on its own fresh database; PGlite start-up dominates.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
