import { randomInt } from "node:crypto";
import { expect } from "vitest";
import type { App } from "../../src/types.ts";

/** The magic_credential of the newest dev-outbox link sent to `email`. */
export async function latestLinkToken(app: App, email: string): Promise<string> {
  const response = await app.inject({
    method: "GET",
    url: `/dev/outbox/messages?to=${encodeURIComponent(email)}`,
  });
  expect(response.statusCode).toBe(200);
  // Newest first; other e-mails (the low-balance alert) carry no sign-in link.
  const messages = response.json().data as Array<{ link: string | null }>;
  const link = messages.find((message) => message.link)?.link ?? undefined;
  if (!link) throw new Error(`no login link was sent to ${email}`);
  return new URL(link).searchParams.get("magic_credential")!;
}

export async function requestLink(app: App, email: string, extra: Record<string, unknown> = {}) {
  return app.inject({ method: "POST", url: "/auth/login", payload: { email, ...extra } });
}

export async function verify(app: App, accessToken: string) {
  return app.inject({ method: "POST", url: "/auth/magic/verify", payload: { access_token: accessToken } });
}

/** An address of the benchmarking range (198.18.0.0/15), new for each sign-in: with a shared
 * Redis the per-address sign-in limits count every test file and run on this machine, and no
 * test that merely needs a signed-in user should meet them. */
const freshAddress = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/** Signs in through the real endpoints and returns the app token and user id. */
export async function signIn(
  app: App,
  email: string,
  remoteAddress = freshAddress(),
): Promise<{ token: string; id: string; exp: number }> {
  const sent = await app.inject({ method: "POST", url: "/auth/login", payload: { email }, remoteAddress });
  expect(sent.statusCode).toBe(200);
  const verified = await app.inject({
    method: "POST",
    url: "/auth/magic/verify",
    payload: { access_token: await latestLinkToken(app, email) },
    remoteAddress,
  });
  expect(verified.statusCode).toBe(200);
  return verified.json().data;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
