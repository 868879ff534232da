import type { InvoiceSummary } from "@bytetoll/contracts";
import { queryOptions } from "@tanstack/react-query";
import { ApiError, type ApiSuccess, apiRequest } from "../../../lib/api-client.ts";
import { API_BASE_URL } from "../../../lib/env.ts";
import { readUsableToken } from "../../../lib/token-storage.ts";

/** Under ["account"], which logout's cleanup removes. */
export const INVOICES_QUERY_KEY = ["account", "invoices"] as const;

/** GET /account/invoices: invoices and credit notes, newest first. */
export const invoicesQueryOptions = () =>
  queryOptions({
    queryKey: INVOICES_QUERY_KEY,
    queryFn: async ({ signal }) =>
      (await apiRequest<ApiSuccess<InvoiceSummary[]>>("/account/invoices", { signal })).data,
  });

/** GET /account/invoices/{number}: the print-ready page, saved as `<number>.html`. A page the API
 * answers with HTML, so it is fetched here rather than through apiRequest (which reads JSON). */
export async function downloadInvoice(number: string): Promise<void> {
  const token = readUsableToken();
  const response = await fetch(`${API_BASE_URL}/account/invoices/${encodeURIComponent(number)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    credentials: "omit",
  });
  if (!response.ok)
    throw new ApiError(`Could not download ${number} (HTTP ${response.status})`, response.status);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `${number}.html`;
  link.click();
  URL.revokeObjectURL(url);
}
