import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../../helpers/sign-in.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const received: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;

/** Undoes quoted-printable soft line breaks and escapes so the link can be read back. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const from = session.envelope.mailFrom;
        received.push({
          from: from ? from.address : undefined,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: "ByteToll <login@bytetoll.test>",
  });
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("sign-in over real SMTP", () => {
  it("e-mails the link and signs in with the link from the received message", async () => {
    const sent = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "Smtp.User@Example.com" },
    });
    expect(sent.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    const message = received[0]!;
    expect(message.to).toEqual(["smtp.user@example.com"]);
    expect(message.from).toBe("login@bytetoll.test");

    const body = decodeQuotedPrintable(message.raw);
    const link = body.match(/http:\/\/localhost:3000\/magic\/auth\?magic_credential=[A-Za-z0-9_-]{43}/)?.[0];
    expect(link).toBeDefined();
    expect(link!.startsWith(`${TEST_APP_URL}/magic/auth?`)).toBe(true);
    const token = new URL(link!).searchParams.get("magic_credential")!;

    const verified = await t.app.inject({
      method: "POST",
      url: "/auth/magic/verify",
      payload: { access_token: token },
    });
    expect(verified.statusCode).toBe(200);
    const session = await t.app.inject({
      method: "GET",
      url: "/auth/session",
      headers: bearer(verified.json().data.token),
    });
    expect(session.json().data.email).toBe("smtp.user@example.com");
  });

  it("has no dev outbox when SMTP is configured", async () => {
    const response = await t.app.inject({ method: "GET", url: "/dev/outbox/messages" });
    expect(response.statusCode).toBe(404);
  });
});
