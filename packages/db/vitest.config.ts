import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "db",
    environment: "node",
    // On PostgreSQL, test databases are copies of one migrated template per run.
    globalSetup: ["./src/postgres-template.setup.ts"],
    include: ["src/**/*.test.ts"],
    // Every file opens and closes its own databases: the files share their worker's modules.
    isolate: false,
    hookTimeout: 30_000,
  },
});
