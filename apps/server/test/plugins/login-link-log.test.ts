import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { LOG_REDACTION, prettyStream } from "../../src/lib/log-output.ts";
import type { App } from "../../src/types.ts";
import { testConfig } from "../helpers/test-app.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** The server as `npm start` builds it without SMTP_URL: the dev outbox, the process's own logger. */
async function serverLoggingTo(format: "json" | "pretty", lines: string[]): Promise<App> {
  const out = {
    write(chunk: string) {
      lines.push(...chunk.split("\n").filter(Boolean));
      return true;
    },
  };
  const log = pino(
    { name: "server", ...LOG_REDACTION },
    format === "json" ? out : prettyStream(out as unknown as NodeJS.WritableStream),
  );
  // warn, as an operator who wants quiet logs sets it: a login link is still the way in.
  log.level = "warn";
  const app = await buildApp({ config: testConfig({ LOG_LEVEL: "warn" }), database, logger: log });
  await app.ready();
  return app;
}

async function askForLink(app: App, email: string) {
  const sent = await app.inject({ method: "POST", url: "/auth/login", payload: { email } });
  expect(sent.statusCode).toBe(200);
  const outbox = await app.inject({
    method: "GET",
    url: `/dev/outbox/messages?to=${encodeURIComponent(email)}`,
  });
  return (outbox.json().data as Array<{ link: string }>)[0]!.link;
}

describe("the dev outbox's login link in the log", () => {
  it("is a JSON line among the JSON lines in JSON log mode, whatever LOG_LEVEL is", async () => {
    const lines: string[] = [];
    const app = await serverLoggingTo("json", lines);
    try {
      const link = await askForLink(app, "json-log@example.com");
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries).toContainEqual(
        expect.objectContaining({ level: 30, msg: `Login link for json-log@example.com: ${link}` }),
      );
    } finally {
      await app.close();
    }
  });

  it("is one readable line in pretty mode", async () => {
    const lines: string[] = [];
    const app = await serverLoggingTo("pretty", lines);
    try {
      const link = await askForLink(app, "pretty-log@example.com");
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(
            `^\\d\\d:\\d\\d:\\d\\d INFO {2}Login link for pretty-log@example\\.com: ${link.replace(/[.?]/g, "\\$&")}$`,
          ),
        ),
      );
    } finally {
      await app.close();
    }
  });
});
