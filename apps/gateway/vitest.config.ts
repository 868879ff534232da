import { defineProject } from "vitest/config";

/** What both gateway projects share. */
export const gatewayTest = {
  environment: "node",
  // On PostgreSQL, test databases are copies of one migrated template per run.
  globalSetup: ["../../packages/db/src/postgres-template.setup.ts"],
  testTimeout: 20_000,
  hookTimeout: 30_000,
} as const;

/** Files that count this process's descriptors or Node handles exactly, before and after: they run
 * in a process of their own (vitest.own-process.config.ts), where no earlier file's sockets can
 * still be closing. */
export const OWN_PROCESS = ["test/tunnel-splice.test.ts"];

export default defineProject({
  test: {
    ...gatewayTest,
    name: "gateway",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: OWN_PROCESS,
    // Files share their worker's modules (no fresh module graph per file): every file builds its
    // own gateway, database and sockets and closes them, and importing the graph again for each
    // file was about half of this project's time.
    isolate: false,
  },
});
