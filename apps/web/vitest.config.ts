import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    // Component tests render against a stubbed API (src/test/api-stub.ts) and never reach a database: with `DATABASE_URL`
    // set (the PostgreSQL pass of `npm test`) they would only repeat the embedded pass.
    include: process.env.DATABASE_URL && process.env.E2E_ALL !== "1" ? [] : ["src/**/*.test.{ts,tsx}"],
    passWithNoTests: true,
    setupFiles: ["./src/test/setup.ts"],
    // jsdom renders share two cores with the server and browser projects; a first render of a
    // lazy route can take seconds then, which is no failure of the page.
    testTimeout: 20_000,
  },
});
