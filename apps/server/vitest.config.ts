import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    // On PostgreSQL, test databases are copies of one migrated template per run.
    globalSetup: ["../../packages/db/src/postgres-template.setup.ts"],
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Files share their worker's modules (no fresh module graph per file): every file builds its
    // own app, database and sockets and closes them, so nothing of one reaches the next, and
    // importing the server's graph again for each file was a third of this project's time.
    isolate: false,
    // Each file builds its own app on its own fresh database; PGlite start-up dominates.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
