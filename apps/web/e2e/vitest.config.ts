import { defineProject } from "vitest/config";

/** Specs whose pages depend on what PostgreSQL + Redis do differently from the embedded database:
 * live updates fanned out between instances, deal progress and stock. The other specs drive the
 * same HTTP API that the server suites test on both databases, so with `DATABASE_URL` set they run
 * only when `E2E_ALL=1` (the embedded pass of `npm test` runs them all). */
const POSTGRES_SPECS = ["live-balance.spec.ts", "deals.spec.ts"];
const onPostgres = () => Boolean(process.env.DATABASE_URL) && process.env.E2E_ALL !== "1";

// End-to-end specs: the real server (child process, real database) and Debian's Chromium.
export default defineProject({
  test: {
    name: "e2e",
    environment: "node",
    include: onPostgres() ? POSTGRES_SPECS : ["**/*.spec.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits for something the page does (a refetch, a live event, a flush); Vitest's
    // one-second default is shorter than a 5 s refetch or a loaded machine's render, and a longer
    // deadline only makes a real failure slower to report, never a wrong value pass.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // Each spec file starts its own server and browser. They share the workers with the other
    // projects' files (a project with its own worker count would run in a phase of its own).
  },
});
