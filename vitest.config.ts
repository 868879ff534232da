import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/server", "apps/gateway", "apps/mcp", "apps/web", "apps/web/e2e"],
    // Most test time is spent waiting on databases, sockets and the browser, not the CPU: on a
    // 2-core machine Vitest's default (cores − 1 = one file at a time) leaves the CPU idle.
    maxWorkers: 3,
  },
});
