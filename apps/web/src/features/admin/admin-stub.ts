import type {
  AdminCustomer,
  AdminCustomerDetail,
  AdminDeal,
  AdminOrder,
  AdminPayout,
  AuditEntry,
} from "@bytetoll/contracts";
import { vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../test/api-stub.ts";
import { orderFixture } from "../../test/order-fixture.ts";
import { renderRoute } from "../../test/render-route.tsx";

/** Tests of the console: an operator signed in, the API stubbed by path, every URL recorded. */

export const OPERATOR = { ...TEST_USER, email: "ops@example.com", is_operator: true };
const CUSTOMER_ID = "3f0c6c8e-4c1a-4f7e-9d5b-7a1e2b3c4d5e";

type Reply = Response | ((url: URL, body: unknown) => Response | Promise<Response>);

/** A reply that never comes: the page stays in its loading state. */
export const never = () => new Promise<Response>(() => {});

/** A list page of the admin API. */
export const listOf = <T>(data: T[], total = data.length, page = 1, per_page = 25) =>
  Response.json({ success: true, data, page, per_page, total });

/** Opens `path` in the console with `routes` ("METHOD /path" → reply) and records every request. */
export function openConsole(path: string, routes: Record<string, Reply> = {}) {
  signInWithToken("operator-token");
  stubApi({
    "GET /auth/session": ok(OPERATOR),
    "GET /admin/me": ok({ actor: OPERATOR.email, email: OPERATOR.email }),
    // The Overview's background-jobs card: none unless a test says otherwise.
    "GET /admin/jobs": ok([]),
  });
  const shared = globalThis.fetch;
  const requests: Array<{ method: string; url: URL; headers: Headers; body: unknown }> = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    const method = init?.method ?? "GET";
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    requests.push({ method, url, headers: new Headers(init?.headers), body });
    const reply = routes[`${method} ${url.pathname}`];
    if (reply === undefined) return shared(input, init);
    return typeof reply === "function" ? reply(url, body) : reply.clone();
  });
  const view = renderRoute(path);
  const to = (method: string, pathname: string) =>
    requests.filter((request) => request.method === method && request.url.pathname === pathname);
  return { ...view, requests, to };
}

export function customerFixture(overrides: Partial<AdminCustomer> = {}): AdminCustomer {
  return {
    id: CUSTOMER_ID,
    email: "buyer@example.com",
    balance_gb: 5,
    balance_bytes: 5e9,
    created_at: new Date(2026, 10, 1, 9, 0).toISOString(),
    disabled_at: null,
    ...overrides,
  };
}

export function adminOrderFixture(overrides: Partial<AdminOrder> = {}): AdminOrder {
  return {
    ...orderFixture({ order_id: "7d1f2a3b-0000-4000-8000-000000000001", user_id: CUSTOMER_ID }),
    email: "buyer@example.com",
    provider: "sandbox",
    provider_payment_id: null,
    credited_gb: 0,
    reversed_gb: 0,
    ...overrides,
  } as AdminOrder;
}

export function customerDetailFixture(overrides: Partial<AdminCustomerDetail> = {}): AdminCustomerDetail {
  return {
    ...customerFixture(),
    leased_bytes: 0,
    leased_gb: 0,
    sessions: { active: 2, latest_at: new Date(2026, 10, 20, 8, 0).toISOString() },
    api_token: { exists: false, created_at: null },
    proxy_credentials: { username: "buyer-x1", updated_at: new Date(2026, 10, 1, 9, 0).toISOString() },
    usage_by_day: [
      { day: "2026-11-20", bytes: 0, gb: 0, requests: 0 },
      { day: "2026-11-21", bytes: 1.5e9, gb: 1.5, requests: 40 },
    ],
    ledger: {
      data: [
        {
          id: 11,
          kind: "bonus",
          reference: "free-gb",
          delta_bytes: 1e9,
          delta_gb: 1,
          note: null,
          created_at: new Date(2026, 10, 1, 9, 0).toISOString(),
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
    },
    orders: { data: [adminOrderFixture()], page: 1, per_page: 20, total: 1 },
    subusers: {
      data: [
        {
          id: "5d1e2f3a-0000-4000-8000-000000000003",
          label: "crawler",
          username: "suabcdefghij",
          limit_gb: 2,
          limit_bytes: 2e9,
          limit_period: "day",
          used_gb: 0.5,
          used_bytes: 5e8,
          period_start: "2026-11-21",
          enabled: false,
          created_at: new Date(2026, 10, 2, 9, 0).toISOString(),
          last_30_days: { bytes: 7.5e8, gb: 0.75, requests: 50 },
        },
      ],
      page: 1,
      per_page: 20,
      total: 1,
      main_credentials: { bytes: 70_000, gb: 0, requests: 7 },
      deleted: { bytes: 0, gb: 0, requests: 0 },
    },
    ...overrides,
  };
}

export function dealFixture(overrides: Partial<AdminDeal> = {}): AdminDeal {
  return {
    id: "dJx9",
    deal_type: "group_buy",
    deal_title: "Spring group buy",
    deal_description: "",
    deal_price: 1.5,
    status: "live",
    deal_start_time: new Date(2026, 10, 1).toISOString(),
    deal_end_time: new Date(2026, 11, 1).toISOString(),
    deal_reserved_gb: 0,
    deal_target_gb: 10_000,
    deposited_usd: 300,
    participants: 3,
    progress_percent: 2,
    ...overrides,
  };
}

export function payoutFixture(overrides: Partial<AdminPayout> = {}): AdminPayout {
  return {
    id: "9b2e4c6d-0000-4000-8000-000000000002",
    email: "payee@example.com",
    user_id: CUSTOMER_ID,
    deal_id: "dJx9",
    kind: "withdrawal",
    amount_usd: 120,
    wallet_address: "0x1111222233334444555566667777888899990000",
    status: "pending",
    tx_hash: null,
    created_at: new Date(2026, 10, 21, 10, 0).toISOString(),
    updated_at: new Date(2026, 10, 21, 10, 0).toISOString(),
    ...overrides,
  };
}

export function auditFixture(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id: 1,
    actor: OPERATOR.email,
    action: "customer.disable",
    subject_type: "account",
    subject_id: CUSTOMER_ID,
    subject_label: "carol@example.com",
    before: { disabled_at: null },
    after: { disabled_at: "2026-11-21T10:00:00.000Z" },
    note: "chargebacks",
    created_at: new Date(2026, 10, 21, 10, 0).toISOString(),
    ...overrides,
  };
}
