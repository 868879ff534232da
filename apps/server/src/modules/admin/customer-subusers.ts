import {
  type AdminCustomerDetail,
  type AdminSubuser,
  bytesToGb,
  CUSTOMER_PAGE_ROWS,
} from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import { type OperatorSubuserRow, subusersForOperator } from "../subusers/index.ts";

const traffic = (bytes: string | number | undefined, requests: string | number | undefined) => ({
  bytes: Number(bytes ?? 0),
  gb: bytesToGb(Number(bytes ?? 0)),
  requests: Number(requests ?? 0),
});

const toAdminSubuser = (row: OperatorSubuserRow): AdminSubuser => {
  const limitBytes = row.limit_bytes === null ? null : Number(row.limit_bytes);
  const usedBytes = Number(row.used_bytes);
  return {
    id: row.id,
    label: row.label,
    username: row.username,
    limit_gb: limitBytes === null ? null : limitBytes / 1e9,
    limit_bytes: limitBytes,
    limit_period: row.limit_period,
    used_gb: Math.round(usedBytes / 1e6) / 1e3,
    used_bytes: usedBytes,
    period_start: row.period_start,
    enabled: row.enabled,
    created_at: new Date(row.created_at).toISOString(),
    last_30_days: traffic(row.bytes, row.requests),
  };
};

/**
 * A page of the customer's sub-users (oldest first) with each one's limit, this period's use (an
 * earlier period's counts as none, as on the customer's own page) and traffic since `since`; and
 * the rest of that traffic, split into the account's own credentials and deleted sub-users.
 */
export async function customerSubusers(
  database: Database,
  userId: string,
  page: number,
  since: string,
): Promise<AdminCustomerDetail["subusers"]> {
  const { rows, total, rest } = await subusersForOperator(database, userId, CUSTOMER_PAGE_ROWS, page, since);
  const main = rest.find((row) => row.main);
  const deleted = rest.find((row) => !row.main);
  return {
    data: rows.map(toAdminSubuser),
    page,
    per_page: CUSTOMER_PAGE_ROWS,
    total,
    main_credentials: traffic(main?.bytes, main?.requests),
    deleted: traffic(deleted?.bytes, deleted?.requests),
  };
}
