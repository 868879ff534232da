import react from "@vitejs/plugin-react";
import { defineProject } from "vitest/config";

export default defineProject({
  plugins: [react()],
  test: {
    name: "web",
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["./src/test/setup.ts"],
    // jsdom renders share two cores with the server and browser projects; a first render of a
    // lazy route can take seconds then, which is no failure of the page.
    testTimeout: 20_000,
  },
});
