import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestLinkToken, requestLink, verify } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";
import { customer } from "../orders/helpers.ts";

const OPERATOR = "ops@example.com";
const ADMIN_TOKEN = "admin-token-disabled-0123456789";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: OPERATOR, ADMIN_TOKEN });
});
afterAll(() => t?.close());

const DISABLED = {
  success: false,
  message: `This account is disabled. Contact support at ${OPERATOR}`,
};

async function disable(id: string) {
  const response = await t.app.inject({
    method: "POST",
    url: `/admin/customers/${id}/disable`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {},
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe("a disabled customer", () => {
  it("is told plainly, with the operator's address, on every call and when following a login link", async () => {
    const erin = await customer(t.app, "erin@example.com");
    await disable(erin.id);
    for (const url of ["/auth/session", "/account/status", "/credentials/latest"]) {
      const response = await t.app.inject({ method: "GET", url, headers: erin.headers });
      expect(response.statusCode, url).toBe(403);
      expect(response.json()).toEqual(DISABLED);
    }
    // The link is still sent (asking reveals nothing to someone who does not hold the mailbox);
    // the holder who follows it reads why it goes no further.
    expect((await requestLink(t.app, "erin@example.com")).statusCode).toBe(200);
    const followed = await verify(t.app, await latestLinkToken(t.app, "erin@example.com"));
    expect(followed.statusCode).toBe(403);
    expect(followed.json()).toEqual(DISABLED);
  });
});

describe("the Support link", () => {
  it("reaches the first operator by e-mail when no SUPPORT_URL is configured", async () => {
    const response = await t.app.inject({ method: "GET", url: "/config" });
    expect(response.json().data.support_url).toBe(`mailto:${OPERATOR}`);
  });

  it("names SUPPORT_URL's mailbox to a disabled customer when one is configured", async () => {
    const other = await createTestApp(
      { ADMIN_EMAILS: OPERATOR, SUPPORT_URL: "mailto:help@example.com?subject=Account" },
      { database: t.database },
    );
    try {
      expect(other.config.SUPPORT_CONTACT).toBe("help@example.com");
    } finally {
      await other.close();
    }
  });
});
