import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "server",
    environment: "node",
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    // Files share a worker and its loaded modules (each still builds its own app on its own
    // fresh database): loading the server and PGlite once per worker instead of once per file.
    isolate: false,
    // Each file builds its own app on its own fresh database; PGlite start-up dominates.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
