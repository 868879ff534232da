import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "gateway",
    environment: "node",
    // On PostgreSQL, test databases are copies of one migrated template per run.
    globalSetup: ["../../packages/db/src/postgres-template.setup.ts"],
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
