import {
  type AccountsQuery,
  type AdminCustomer,
  type AdminCustomerDetail,
  bytesToGb,
  CUSTOMER_PAGE_ROWS,
  type CustomerDetailQuery,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { AppError } from "../../errors.ts";
import { ledgerPage } from "../account/index.ts";
import { announceAccountChange, tokenCreatedAt } from "../api-token/index.ts";
import {
  type CustomerRow,
  customerById,
  customersPage,
  lockCustomer,
  revokeLiveSessions,
  sessionSummary,
  setCustomerDisabled,
} from "../auth/index.ts";
import { credentialSummary } from "../credentials/index.ts";
import { accountOrdersPage } from "../orders/index.ts";
import { accountUsageByDay } from "../usage/index.ts";
import { appendAudit } from "./audit.ts";
import { customerSubusers } from "./customer-subusers.ts";
import { likePattern, toAdminOrder } from "./service.ts";

const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

const iso = (value: Date | string) => new Date(value).toISOString();

export const toCustomer = (row: CustomerRow): AdminCustomer => ({
  id: row.id,
  email: row.email,
  balance_bytes: Number(row.balance_bytes),
  balance_gb: bytesToGb(Number(row.balance_bytes)),
  created_at: iso(row.created_at),
  disabled_at: row.disabled_at === null ? null : iso(row.disabled_at),
});

export const customerNotFound = () => new AppError(404, "Customer not found", "not_found");

/** The last `days` UTC days, oldest first (YYYY-MM-DD). */
export function lastDays(days: number, now = Date.now()): string[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, index) =>
    new Date(today - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** The console's customers: search, one customer's page, and disabling (docs/product.md#operators). */
export function createCustomersService(database: Database) {
  const { db } = database;

  async function find(id: string): Promise<CustomerRow> {
    const row = await customerById(database, id);
    if (!row) throw customerNotFound();
    return row;
  }

  return {
    find: (id: string) => find(id).then(toCustomer),

    async list(query: AccountsQuery): Promise<{ data: AdminCustomer[]; total: number }> {
      const filter = query.email ? likePattern(query.email) : null;
      const { rows, total } = await customersPage(database, filter, query.per_page, query.page);
      return { data: rows.map(toCustomer), total };
    },

    async detail(id: string, query: CustomerDetailQuery): Promise<AdminCustomerDetail> {
      const row = await find(id);
      const days = lastDays(USAGE_DAYS);
      const ledgerOffset = (query.ledger_page - 1) * CUSTOMER_PAGE_ROWS;
      const ordersOffset = (query.orders_page - 1) * CUSTOMER_PAGE_ROWS;
      const [sessions, token, credential, usage, ledger, orders, subusers] = await Promise.all([
        sessionSummary(database, id),
        tokenCreatedAt(database, id),
        credentialSummary(database, id),
        accountUsageByDay(database, id, days[0] as string),
        ledgerPage(database, id, CUSTOMER_PAGE_ROWS, ledgerOffset),
        accountOrdersPage(database, id, CUSTOMER_PAGE_ROWS, ordersOffset),
        customerSubusers(database, id, query.subusers_page, days[0] as string),
      ]);
      const usageByDay = new Map(usage.map((day) => [day.day, day]));
      return {
        ...toCustomer(row),
        leased_bytes: Number(row.leased_bytes),
        leased_gb: bytesToGb(Number(row.leased_bytes)),
        sessions: {
          active: Number(sessions?.active ?? 0),
          latest_at: sessions?.latest_at ? iso(sessions.latest_at) : null,
        },
        api_token: { exists: token !== null, created_at: token !== null ? iso(token) : null },
        proxy_credentials: {
          username: credential?.username ?? null,
          updated_at: credential ? iso(credential.updated_at) : null,
        },
        usage_by_day: days.map((day) => {
          const bytes = Number(usageByDay.get(day)?.bytes ?? 0);
          return { day, bytes, gb: bytesToGb(bytes), requests: Number(usageByDay.get(day)?.requests ?? 0) };
        }),
        ledger: {
          data: ledger.rows.map((entry) => ({
            id: Number(entry.id),
            kind: entry.kind,
            reference: entry.reference,
            delta_bytes: Number(entry.delta_bytes),
            delta_gb: bytesToGb(Number(entry.delta_bytes)),
            note: entry.note,
            created_at: iso(entry.created_at),
          })),
          page: query.ledger_page,
          per_page: CUSTOMER_PAGE_ROWS,
          total: ledger.total,
        },
        orders: {
          data: orders.rows.map((order) => toAdminOrder(order, row.email)),
          page: query.orders_page,
          per_page: CUSTOMER_PAGE_ROWS,
          total: orders.total,
        },
        subusers,
      };
    },

    /**
     * Disables (or enables) the account in one transaction with its audit row. The users_changed
     * trigger announces it to every gateway; `announceAccountChange` makes every API instance drop the
     * account's cached sessions and token and re-check its sockets. Answers whether it changed.
     */
    async setDisabled(actor: string, id: string, disabled: boolean, note?: string) {
      return db.transaction(async (tx) => {
        const current = await lockCustomer(tx, id);
        if (!current) throw customerNotFound();
        if ((current.disabled_at !== null) === disabled)
          return { changed: false, customer: toCustomer(current) };
        const updated = await setCustomerDisabled(tx, id, disabled);
        await appendAudit(tx, {
          actor,
          action: disabled ? "customer.disable" : "customer.enable",
          subjectType: "account",
          subjectId: id,
          before: { disabled_at: toCustomer(current).disabled_at },
          after: { disabled_at: toCustomer(updated).disabled_at },
          note: note ?? null,
        });
        // Every API instance drops the account's cached sessions and token and re-checks its sockets.
        await announceAccountChange(tx, id);
        return { changed: true, customer: toCustomer(updated) };
      });
    },

    /** Signs the account out everywhere (its API token keeps working); the sessions trigger
     * closes its sockets on every instance. */
    async revokeSessions(actor: string, id: string, note?: string) {
      await find(id);
      return db.transaction(async (tx) => {
        const count = await revokeLiveSessions(tx, id);
        await appendAudit(tx, {
          actor,
          action: "customer.revoke_sessions",
          subjectType: "account",
          subjectId: id,
          before: { active_sessions: count },
          after: { active_sessions: 0 },
          note: note ?? null,
        });
        return count;
      });
    },
  };
}

export type CustomersService = ReturnType<typeof createCustomersService>;
