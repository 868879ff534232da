import type { UsageDayRow, UsageDomainRow, UsageMetrics } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";

/** The metric fields as the API answers them: exact bytes, and GB rounded to 2 decimals. */
function metrics(
  mobileBytes: number,
  dcBytes: number,
  mobileRequests: number,
  dcRequests: number,
): UsageMetrics {
  const gb = (bytes: number) => Math.round(bytes / 1e7) / 100;
  return {
    mobile_gb: gb(mobileBytes),
    dc_gb: gb(dcBytes),
    mobile_requests: mobileRequests,
    dc_requests: dcRequests,
    mobile_bytes: mobileBytes,
    dc_bytes: dcBytes,
  };
}
const ZERO = metrics(0, 0, 0, 0);

const DAYS: UsageDayRow[] = [
  { date: "2025-02-27", ...ZERO },
  { date: "2025-02-28", ...metrics(1.5e9, 0.25e9, 1200, 30) },
  { date: "2025-03-01", ...metrics(0, 2e9, 0, 45) },
];
const DOMAINS: UsageDomainRow[] = [
  { value: "shop.example", ...metrics(3e9, 0, 10, 0) },
  { value: "Others", ...metrics(0.5e9, 0.1e9, 5, 2) },
];
const TYPES: UsageMetrics[] = [metrics(1.5e9, 2.25e9, 1200, 75)];

interface UsageCall {
  url: URL;
  at: number;
  headers: Headers;
}

type UsageReply = (url: URL) => Response;

const answer =
  (rows: Record<string, unknown[]>): UsageReply =>
  (url) =>
    ok(rows[url.searchParams.get("group_by") ?? ""]);

/**
 * The shared stub answers by path only; usage answers depend on the query string, so calls to
 * /proxies/usage* are intercepted here first and everything else goes to the shared stub.
 */
function usagePage(reply: UsageReply = answer({ day: DAYS, domain: DOMAINS, proxy_type: TYPES })) {
  signInWithToken("usage-token");
  stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 5, balance_bytes: 5e9 }),
  });
  const shared = globalThis.fetch;
  const calls: UsageCall[] = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost");
    if (!url.pathname.startsWith("/proxies/usage")) return shared(input, init);
    calls.push({ url, at: Date.now(), headers: new Headers(init?.headers) });
    return reply(url);
  });
  renderRoute("/usage");
  const byGroup = (group: string) => calls.filter((call) => call.url.searchParams.get("group_by") === group);
  return { calls, byGroup };
}

const card = (name: string) => screen.getByRole("region", { name });
const tableRows = (region: HTMLElement) =>
  within(region)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));

beforeEach(() => {
  // jsdom has no layout; Recharts' ResponsiveContainer only needs the observer to exist.
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

// The first chart render loads Recharts into jsdom, which takes seconds on a busy machine.
const SLOW = { timeout: 30_000 };

describe("Usage page", SLOW, () => {
  it("asks for each grouping with SPEC's default periods and the bearer token", async () => {
    const api = usagePage();
    await screen.findByRole("heading", { name: "Usage per Day" });
    // Three cards, and the sub-user choice reading the usage by sub-user for its options.
    await waitFor(() => expect(new Set(api.calls.map((call) => call.url.search)).size).toBe(4));
    const params = (group: string) => Object.fromEntries(api.byGroup(group)[0]!.url.searchParams);
    expect(params("day")).toEqual({ group_by: "day", days: "7" });
    expect(params("domain")).toEqual({ group_by: "domain", days: "7", others: "true" });
    expect(params("proxy_type")).toEqual({ group_by: "proxy_type", days: "30" });
    expect(params("subuser")).toEqual({ group_by: "subuser", days: "90" });
    expect(api.calls[0]!.headers.get("authorization")).toBe("Bearer usage-token");
  });

  it("draws the three cards with their numbers, stacked by mobile and DC", async () => {
    usagePage();
    await screen.findByText("Usage per day (UTC)");
    expect(tableRows(card("Usage per Day"))).toEqual([
      ["Feb 27", "0 GB", "0 GB", "0 GB"],
      ["Feb 28", "1.5 GB", "250 MB", "1.75 GB"],
      ["Mar 1", "0 GB", "2 GB", "2 GB"],
    ]);
    expect(tableRows(card("Usage per Domain"))).toEqual([
      ["shop.example", "3 GB", "0 GB", "3 GB"],
      ["Others", "500 MB", "100 MB", "600 MB"],
    ]);
    const donut = card("Usage by Proxy Type");
    expect(await within(donut).findByText("Total")).toBeInTheDocument();
    expect(within(donut).getAllByText("3.75 GB").length).toBeGreaterThan(0);
  });

  it("shows a few KB of traffic, which the API's 2-decimal GB round to 0, in KB from the exact bytes", async () => {
    const few = metrics(4_321, 0, 2, 0);
    usagePage(
      answer({
        day: [{ date: "2025-03-02", ...few }],
        domain: [{ value: "127.0.0.1", ...few }],
        proxy_type: [few],
      }),
    );
    await screen.findByText("Usage per day (UTC)");
    expect(tableRows(card("Usage per Day"))).toEqual([["Mar 2", "4.3 KB", "0 GB", "4.3 KB"]]);
    expect(tableRows(card("Usage per Domain"))).toEqual([["127.0.0.1", "4.3 KB", "0 GB", "4.3 KB"]]);
    const donut = card("Usage by Proxy Type");
    expect(await within(donut).findByTestId("donut-centre")).toHaveTextContent("Total4.3 KB");
  });

  it("switches a card to requests at once, from the numbers it already has", async () => {
    usagePage();
    await screen.findByText("Usage per day (UTC)");
    await userEvent.click(within(card("Usage per Day")).getByRole("radio", { name: "Requests" }));
    expect(tableRows(card("Usage per Day"))[1]).toEqual(["Feb 28", "1,200", "30", "1,230"]);
    // The other cards keep their own metric.
    expect(tableRows(card("Usage per Domain"))[0]).toEqual(["shop.example", "3 GB", "0 GB", "3 GB"]);
  });

  it("waits 500 ms after the last period change before asking again, and asks once", async () => {
    const api = usagePage();
    await screen.findByText("Usage per day (UTC)");
    const select = within(card("Usage per Day")).getByRole("combobox", { name: "Usage per Day period" });
    await userEvent.selectOptions(select, "14");
    // Taken before the last change, so a slow machine can only make the gap look longer.
    const changedAt = Date.now();
    await userEvent.selectOptions(select, "90");
    await waitFor(() =>
      expect(api.byGroup("day").map((call) => call.url.searchParams.get("days"))).toContain("90"),
    );
    const refetch = api.byGroup("day").find((call) => call.url.searchParams.get("days") === "90")!;
    expect(refetch.at - changedAt).toBeGreaterThanOrEqual(490);
    expect(api.byGroup("day").some((call) => call.url.searchParams.get("days") === "14")).toBe(false);
    expect(select).toHaveValue("90");
  });

  it("says No data available. in every card for an account without traffic", async () => {
    usagePage(answer({ day: DAYS.map((row) => ({ ...row, ...ZERO })), domain: [], proxy_type: [ZERO] }));
    await waitFor(() => expect(screen.getAllByText("No data available.")).toHaveLength(3));
  });

  it.each([
    [
      "a refused token",
      () => Response.json({ success: false, message: "Unauthorized" }, { status: 401 }),
      "Unauthorized or unexpected response",
    ],
    [
      "an HTML page",
      () => new Response("<html></html>", { headers: { "content-type": "text/html" } }),
      "Unauthorized or unexpected response",
    ],
    [
      "success: false",
      () => Response.json({ success: false, message: "nope" }),
      "API returned success: false",
    ],
    ["a JSON answer without success", () => Response.json({ data: [] }), "API returned success: false"],
  ])("shows SPEC's message for %s", async (_label, reply, message) => {
    usagePage(reply);
    await waitFor(() =>
      expect(screen.getAllByRole("alert").map((alert) => alert.textContent)).toEqual([
        message,
        message,
        message,
      ]),
    );
  });
});

describe("Usage export", SLOW, () => {
  it("downloads the CSV with the bearer token under the server's file name", async () => {
    const csv = "date,domain,proxy_type,bytes,requests\r\n";
    const api = usagePage((url) =>
      url.pathname.endsWith("/export")
        ? new Response(csv, {
            headers: {
              "content-type": "text/csv; charset=utf-8",
              "content-disposition": 'attachment; filename="bytetoll-usage-2025-02-24-to-2025-03-01.csv"',
            },
          })
        : answer({ day: DAYS, domain: DOMAINS, proxy_type: TYPES })(url),
    );
    const createObjectURL = vi.fn(() => "blob:usage-export");
    vi.stubGlobal("URL", Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.href}`);
    });

    await userEvent.selectOptions(await screen.findByRole("combobox", { name: "Export period" }), "7");
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() =>
      expect(clicked).toEqual(["bytetoll-usage-2025-02-24-to-2025-03-01.csv blob:usage-export"]),
    );
    const exportCall = api.calls.find((call) => call.url.pathname === "/proxies/usage/export")!;
    expect(Object.fromEntries(exportCall.url.searchParams)).toEqual({ days: "7", format: "csv" });
    expect(exportCall.headers.get("authorization")).toBe("Bearer usage-token");
  });

  it("exports only the rows of the sub-user chosen on the page", async () => {
    const SUBUSER_ID = "0b8a4c8e-61a4-4c39-9d0e-7cf0f1a7b001";
    const cards = answer({
      day: DAYS,
      domain: DOMAINS,
      proxy_type: TYPES,
      subuser: [
        { value: "crawler", subuser_id: SUBUSER_ID, ...TYPES[0] },
        { value: "Main credentials", subuser_id: null, ...TYPES[0] },
      ],
    });
    const api = usagePage((url) =>
      url.pathname.endsWith("/export")
        ? new Response("date,domain,proxy_type,bytes,requests,subuser\r\n", {
            headers: { "content-type": "text/csv; charset=utf-8" },
          })
        : cards(url),
    );
    vi.stubGlobal(
      "URL",
      Object.assign(URL, { createObjectURL: vi.fn(() => "blob:x"), revokeObjectURL: vi.fn() }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const exports = () => api.calls.filter((call) => call.url.pathname === "/proxies/usage/export");

    await userEvent.selectOptions(await screen.findByRole("combobox", { name: "Sub-user" }), "crawler");
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(exports()).toHaveLength(1));
    expect(Object.fromEntries(exports()[0]!.url.searchParams)).toEqual({
      days: "30",
      format: "csv",
      subuser: SUBUSER_ID,
    });
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Sub-user" }), "All credentials");
    await userEvent.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(exports()).toHaveLength(2));
    expect(exports()[1]!.url.searchParams.has("subuser")).toBe(false);
  });

  it("filters every card by the sub-user chosen, once the account has sub-users", async () => {
    const SUBUSER_ID = "0b8a4c8e-61a4-4c39-9d0e-7cf0f1a7b001";
    const api = usagePage(
      answer({
        day: DAYS,
        domain: DOMAINS,
        proxy_type: TYPES,
        subuser: [
          { value: "crawler", subuser_id: SUBUSER_ID, ...TYPES[0] },
          { value: "Main credentials", subuser_id: null, ...TYPES[0] },
        ],
      }),
    );
    const choice = await screen.findByRole("combobox", { name: "Sub-user" });
    await userEvent.selectOptions(choice, "crawler");
    await waitFor(() =>
      expect(
        ["day", "domain", "proxy_type"].every((group) =>
          api.byGroup(group).some((call) => call.url.searchParams.get("subuser") === SUBUSER_ID),
        ),
      ).toBe(true),
    );
    await userEvent.selectOptions(choice, "Main credentials");
    await waitFor(() =>
      expect(api.byGroup("day").some((call) => call.url.searchParams.get("subuser") === "main")).toBe(true),
    );
  });

  it("says so when the export fails", async () => {
    usagePage((url) =>
      url.pathname.endsWith("/export")
        ? Response.json({ success: false, message: "Unauthorized" }, { status: 401 })
        : answer({ day: DAYS, domain: DOMAINS, proxy_type: TYPES })(url),
    );
    await userEvent.click(await screen.findByRole("button", { name: "Export CSV" }));
    expect(await screen.findByText("Could not export usage. Please try again.")).toBeInTheDocument();
  });
});
