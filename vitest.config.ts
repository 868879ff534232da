import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/server", "apps/gateway", "apps/web", "apps/web/e2e"],
  },
});
