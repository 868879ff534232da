import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { dealFixture } from "../../../test/deal-fixture.ts";
import { dealDepositsQueryKey } from "../api/get-deal-deposits.ts";
import { LATEST_DEALS_QUERY_KEY } from "../api/get-latest-deals.ts";
import { useApplyDealUpdate } from "./use-apply-deal-update.ts";

/** A read whose answer the test gives when it wants. */
function pendingRead<T>() {
  let answer: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    answer = resolve;
  });
  return { promise, answer };
}

describe("a deal.updated push", () => {
  it("drops an older read of the deal list, and keeps the caller's deposits read that a withdrawal started", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const deal = dealFixture({ deal_type: "group_buy" });
    const depositsKey = dealDepositsQueryKey(deal.id);
    client.setQueryData(depositsKey, { total_deposit: 100, credited_deposit: 0 });
    client.setQueryData(LATEST_DEALS_QUERY_KEY, [deal]);

    // In flight when the push arrives: the deposits read after a withdrawal, and an older list.
    const deposits = pendingRead<{ total_deposit: number; credited_deposit: number }>();
    const olderList = pendingRead<(typeof deal)[]>();
    const depositsRead = client.fetchQuery({ queryKey: depositsKey, queryFn: () => deposits.promise });
    void client
      .fetchQuery({ queryKey: LATEST_DEALS_QUERY_KEY, queryFn: () => olderList.promise, staleTime: 0 })
      .catch(() => {});

    const { result } = renderHook(() => useApplyDealUpdate(), { wrapper });
    const updated = { ...deal, deal_title: "After the withdrawal" };
    act(() => result.current({ deal: updated }));
    await waitFor(() =>
      expect(client.getQueryData<(typeof deal)[]>(LATEST_DEALS_QUERY_KEY)?.[0]?.deal_title).toBe(
        "After the withdrawal",
      ),
    );

    deposits.answer({ total_deposit: 0, credited_deposit: 0 });
    olderList.answer([deal]);
    await depositsRead;
    expect(client.getQueryData(depositsKey)).toEqual({ total_deposit: 0, credited_deposit: 0 });
    expect(client.getQueryData<(typeof deal)[]>(LATEST_DEALS_QUERY_KEY)?.[0]?.deal_title).toBe(
      "After the withdrawal",
    );
  });
});
