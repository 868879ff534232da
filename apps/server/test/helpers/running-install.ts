import http from "node:http";
import { createTestDatabase, type TestDatabase } from "@bytetoll/db/testing";
import type { Gateway } from "@bytetoll/gateway";
import { freePort } from "@bytetoll/gateway/testing";
import { createTestApp, type TestApp } from "./test-app.ts";
import { startTestGateway } from "./test-gateway.ts";

export const ORIGIN_BODY = "hello from the origin";
export const ADMIN_TOKEN = "admin-token-for-integration-tests-0123456789";

/** A running install as a customer reaches it: the API on a port, its gateway, and a web origin. */
export interface RunningInstall {
  t: TestApp;
  /** The API's address (what customers call APP_URL). */
  url: string;
  gatewayPort: number;
  /** The gateway's SOCKS5 port. */
  gatewaySocksPort: number;
  /** A plain HTTP site on loopback the gateway may reach. */
  originUrl: string;
  /** Signs a new customer in through the e-mail link and answers their API token. */
  apiToken(email: string): Promise<string>;
  close(): Promise<void>;
}

let addressSeq = 0;

/** The magic_credential of the newest dev-outbox link sent to `email`. */
async function latestLinkToken(t: TestApp, email: string): Promise<string> {
  const response = await t.app.inject({
    method: "GET",
    url: `/dev/outbox/messages?to=${encodeURIComponent(email)}`,
  });
  const link = response.json().data[0]?.link as string | undefined;
  if (!link) throw new Error(`no login link was sent to ${email}`);
  return new URL(link).searchParams.get("magic_credential") ?? "";
}

export async function startRunningInstall(): Promise<RunningInstall> {
  const database: TestDatabase = await createTestDatabase();
  const origin = http.createServer((_request, response) => response.end(ORIGIN_BODY));
  await new Promise<void>((resolve) => origin.listen(0, "127.0.0.1", resolve));
  const gateway: Gateway = await startTestGateway(database, { socksPort: 0 });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const t = await createTestApp(
    {
      PORT: String(port),
      // Links, the integration guide and its commands name the address customers reach.
      APP_URL: url,
      ADMIN_TOKEN,
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_HTTP_PORT: String(gateway.httpPort),
      GATEWAY_SOCKS_PORT: String(gateway.socksPort),
      GATEWAY_HTTPS_PORT: String(gateway.httpsPort),
      IPINFO_URL: `${url}/ipinfo`,
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    },
    { database },
  );
  await t.app.listen({ host: "127.0.0.1", port });
  const address = origin.address();
  const originUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;

  async function apiToken(email: string): Promise<string> {
    // An address of its own: with REDIS_URL the per-IP sign-in limits are shared by every run.
    addressSeq += 1;
    const remoteAddress = `198.18.${Math.floor(Math.random() * 250)}.${addressSeq % 250}`;
    await t.app.inject({ method: "POST", url: "/auth/login", payload: { email }, remoteAddress });
    const verified = await t.app.inject({
      method: "POST",
      url: "/auth/magic/verify",
      payload: { access_token: await latestLinkToken(t, email) },
      remoteAddress,
    });
    const session = verified.json().data as { token: string };
    const response = await t.app.inject({
      method: "GET",
      url: "/account/api-token",
      headers: { authorization: `Bearer ${session.token}` },
    });
    return response.json().data.token as string;
  }

  return {
    t,
    url,
    gatewayPort: gateway.httpPort,
    gatewaySocksPort: gateway.socksPort as number,
    originUrl,
    apiToken,
    async close() {
      await t.close();
      await gateway.close();
      await new Promise((resolve) => origin.close(resolve));
      await database.close();
    },
  };
}
