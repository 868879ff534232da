import type { PublicConfig, SessionUser } from "@bytetoll/contracts";
import { vi } from "vitest";
import { STORAGE_KEYS } from "../lib/storage-keys.ts";

/** One request the page made, as the stubbed server saw it. */
export interface RecordedCall {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

type Reply = Response | ((call: RecordedCall) => Response | Promise<Response>);

/** Decision 001 envelopes. */
export function ok(data?: unknown, message?: string): Response {
  const body: Record<string, unknown> = { success: true };
  if (data !== undefined) body.data = data;
  if (message !== undefined) body.message = message;
  return Response.json(body);
}

export function fail(status: number, message: string): Response {
  return Response.json({ success: false, message }, { status });
}

export const TEST_CONFIG: PublicConfig = {
  price_per_gb_usd: 3,
  dc_price_per_gb_usd: 0.3,
  free_gb: 1,
  gateway: { host: "proxy.example.test", http_port: 8080, https_port: 8443, socks_port: 1080 },
  docs_url: "https://docs.example.test/",
  marketing_url: "https://bytetoll.example.test/",
  support_url: "mailto:support@example.test",
  terms_url: "https://example.test/terms",
  privacy_url: "https://example.test/privacy",
  node_sdk_url: "https://bytetoll.example.test/docs/integrations#nodejs",
  php_sdk_url: "https://bytetoll.example.test/docs/integrations#php",
  mcp_server_url: "https://bytetoll.example.test/docs/integrations#mcp",
  crypto_provider: "nowpayments",
  card_provider: "stripe",
};

export const TEST_USER: SessionUser = {
  id: "7b0b5a8e-1c1d-4b8e-9a51-0d6f1e2c3a4b",
  email: "buyer@example.com",
  refund_address: null,
  is_operator: false,
  second_factor: false,
  operator_factor_missing: false,
};

/**
 * Replaces fetch with a minimal stand-in for the API: "METHOD /path" → reply. GET /config and GET
 * /accounts answer by default; anything unlisted is a JSON 404 like the real server's. Every call is recorded.
 */
export function stubApi(routes: Record<string, Reply> = {}) {
  const calls: RecordedCall[] = [];
  const table: Record<string, Reply> = {
    "GET /config": () => ok(TEST_CONFIG),
    // The signed-in person's own account only: no switcher, every page of the owner.
    "GET /accounts": () => ok([{ id: TEST_USER.id, email: TEST_USER.email, role: "owner", current: true }]),
    ...routes,
  };
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === "string" ? input : input instanceof URL ? input.href : input.url,
      "http://localhost",
    );
    const method = init?.method ?? "GET";
    const text = typeof init?.body === "string" ? init.body : undefined;
    const call: RecordedCall = {
      method,
      path: url.pathname,
      headers: new Headers(init?.headers),
      body: text === undefined ? undefined : JSON.parse(text),
      credentials: init?.credentials,
    };
    calls.push(call);
    const reply = table[`${method} ${url.pathname}`];
    if (reply === undefined) return fail(404, "Not found");
    return typeof reply === "function" ? reply(call) : reply.clone();
  });
  vi.stubGlobal("fetch", fetchStub);
  return {
    calls,
    callsTo: (method: string, path: string) =>
      calls.filter((call) => call.method === method && call.path === path),
  };
}

/** Stores a token as a previous sign-in would have, valid for `secondsLeft` more seconds. */
export function signInWithToken(token = "test-token", secondsLeft = 3600): void {
  window.localStorage.setItem(
    STORAGE_KEYS.appToken,
    JSON.stringify({ token, exp: Math.floor(Date.now() / 1000) + secondsLeft }),
  );
}
