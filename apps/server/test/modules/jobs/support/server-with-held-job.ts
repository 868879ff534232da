// A server process (the real app, listening) that also handles the job "held": it records that it
// started and then never finishes, so a test can kill the process in the middle of it.
import { openDatabase } from "@bytetoll/db";
import { buildApp } from "../../../../src/app.ts";
import { testConfig } from "../../../helpers/test-app.ts";

const config = testConfig({ DATABASE_URL: process.env.DATABASE_URL ?? "", JOBS_LEASE_MS: "1000" });
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, maxConnections: 3 });
const app = await buildApp({ config, database, logger: false });
app.jobs.handle("held", async ({ attempts }) => {
  await database.query("INSERT INTO held_job_runs (phase, attempt) VALUES ('started', $1)", [attempts]);
  await new Promise(() => {});
});
await app.listen({ host: "127.0.0.1", port: 0 });
console.log("listening");
