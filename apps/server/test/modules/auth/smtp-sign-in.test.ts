import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer } from "../../helpers/sign-in.ts";
import { type SmtpInbox, startSmtpInbox } from "../../helpers/smtp-inbox.ts";
import { createTestApp, TEST_APP_URL, type TestApp } from "../../helpers/test-app.ts";

let inbox: SmtpInbox;
let t: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await createTestApp({
    SMTP_URL: inbox.url,
    MAIL_FROM: "ByteToll <login@bytetoll.test>",
  });
});

afterAll(async () => {
  await t.close();
  await inbox.close();
});

describe("sign-in over real SMTP", () => {
  it("e-mails the link and signs in with the link from the received message", async () => {
    const sent = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      payload: { email: "Smtp.User@Example.com" },
    });
    expect(sent.statusCode).toBe(200);
    expect(inbox.received).toHaveLength(1);
    const message = inbox.received[0]!;
    expect(message.to).toEqual(["smtp.user@example.com"]);
    expect(message.from).toBe("login@bytetoll.test");

    const link = message.body.match(
      /http:\/\/localhost:3000\/magic\/auth\?magic_credential=[A-Za-z0-9_-]{43}/,
    )?.[0];
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
