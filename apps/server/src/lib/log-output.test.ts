import { Writable } from "node:stream";
import Fastify from "fastify";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { LOG_REDACTION } from "./log-output.ts";

describe("request log lines", () => {
  it("leave a login link's token and the bearer token out, keeping the rest of the request", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ loggerInstance: pino({ ...LOG_REDACTION }, sink) });
    app.get("/magic/auth", async () => "ok");
    await app.inject({
      method: "GET",
      url: "/magic/auth?magic_credential=SECRET-LINK-TOKEN&order=7",
      headers: { authorization: "Bearer SECRET-APP-TOKEN" },
    });
    await app.close();
    const text = lines.join("");
    expect(text).not.toContain("SECRET-LINK-TOKEN");
    expect(text).not.toContain("SECRET-APP-TOKEN");
    expect(text).toContain('"url":"/magic/auth?magic_credential=[redacted]&order=7"');
  });
});
