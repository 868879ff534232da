import type { GatewayInstance, Overview } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

function overviewFixture(days: number, overrides: Partial<Overview> = {}): Overview {
  return {
    days,
    from: "2026-11-15",
    to: "2026-11-21",
    revenue: {
      total_cents: 4550,
      by_day: [
        { day: "2026-11-20", cents: 1500, orders: 1 },
        { day: "2026-11-21", cents: 3050, orders: 2 },
      ],
      by_provider: [
        { provider: "stripe", cents: 3050, orders: 2 },
        { provider: "sandbox", cents: 1500, orders: 1 },
      ],
    },
    data: {
      sold_gb: 15,
      used_gb: 2.5,
      by_day: [
        { day: "2026-11-20", sold_gb: 5, used_gb: 1 },
        { day: "2026-11-21", sold_gb: 10, used_gb: 1.5 },
      ],
    },
    customers: { new: 4, active: 3, total: 12, disabled: 1 },
    refusals: {
      requests: 12_000,
      by_reason: [
        { reason: "bad_credentials", count: 300, share: 0.025 },
        { reason: "balance_exhausted", count: 5, share: 5 / 12_000 },
      ],
    },
    payment_rejections: [{ reason: "amount_mismatch", count: 2 }],
    ...overrides,
  };
}

const instance = (overrides: Partial<GatewayInstance> = {}): GatewayInstance => ({
  instance_id: "gw-a",
  started_at: "2026-11-21T08:00:00.000Z",
  updated_at: "2026-11-21T10:00:00.000Z",
  live_connections: 12,
  bytes_per_second: 1_500_000,
  flush_lag_seconds: 0.4,
  refusals: { auth_required: 3, account_disabled: 1 },
  ...overrides,
});

const network = (instances: GatewayInstance[]) =>
  ok({ generated_at: "2026-11-21T10:00:00.000Z", window_minutes: 60, instances, upstreams: [] });

beforeEach(() => {
  vi.stubGlobal(
    "ResizeObserver",
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});

describe("the Overview page", { timeout: 40_000 }, () => {
  it("shows skeletons while the figures load", async () => {
    openConsole("/admin", { "GET /admin/overview": never, "GET /admin/network": never });
    expect(await screen.findByRole("status", { name: "Loading overview" }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading gateways" })).toBeInTheDocument();
  });

  it("shows revenue, GB sold and used, customers and the gateways right now", async () => {
    openConsole("/admin", {
      "GET /admin/overview": (url) => ok(overviewFixture(Number(url.searchParams.get("days")))),
      "GET /admin/network": () =>
        network([
          instance(),
          instance({ instance_id: "gw-b", flush_lag_seconds: 2, refusals: { auth_required: 1 } }),
        ]),
    });
    const business = await screen.findByLabelText("Business");
    expect(within(business).getByText("$45.50")).toBeInTheDocument();
    expect(within(business).getByText("15 GB / 2.5 GB")).toBeInTheDocument();
    expect(within(business).getByText("4")).toBeInTheDocument();
    expect(
      within(screen.getByRole("table", { name: "Revenue by day" })).getByText("$30.50"),
    ).toBeInTheDocument();
    expect(screen.getByText("amount_mismatch")).toBeInTheDocument();
    expect(screen.getByText(/12,000 requests the gateways answered/)).toBeInTheDocument();
    const badPassword = screen.getByText("bad_credentials").closest("li") as HTMLElement;
    expect(badPassword).toHaveTextContent("2.5 % of requests");
    expect(badPassword).toHaveTextContent("300");
    expect(screen.getByText("balance_exhausted").closest("li")).toHaveTextContent("0.04 % of requests");

    const gateways = await screen.findByLabelText("Gateways");
    expect(within(gateways).getByText("2")).toBeInTheDocument();
    expect(within(gateways).getByText("24")).toBeInTheDocument();
    expect(within(gateways).getByText("3 MB/s")).toBeInTheDocument();
    expect(within(gateways).getByText("2 s")).toBeInTheDocument();
    const refusals = screen.getByText("auth_required").closest("li") as HTMLElement;
    expect(refusals).toHaveTextContent("4");
  });

  it("switches between 1, 7, 30 and 90 days, kept in the URL", async () => {
    const api = openConsole("/admin", {
      "GET /admin/overview": (url) => ok(overviewFixture(Number(url.searchParams.get("days")))),
      "GET /admin/network": () => network([]),
    });
    await screen.findByLabelText("Business");
    expect(api.to("GET", "/admin/overview")[0]!.url.searchParams.get("days")).toBe("7");
    await userEvent.click(screen.getByRole("radio", { name: "30d" }));
    await waitFor(() =>
      expect(api.to("GET", "/admin/overview").at(-1)!.url.searchParams.get("days")).toBe("30"),
    );
    expect(api.router.state.location.search).toBe("?days=30");
    expect(screen.getByRole("radio", { name: "30d" })).toBeChecked();
  });

  it("says when nothing was sold and no gateway reports", async () => {
    openConsole("/admin", {
      "GET /admin/overview": () =>
        ok(
          overviewFixture(7, {
            revenue: { total_cents: 0, by_day: [], by_provider: [] },
            data: { sold_gb: 0, used_gb: 0, by_day: [] },
            refusals: { requests: 40, by_reason: [] },
            payment_rejections: [],
          }),
        ),
      "GET /admin/network": () => network([]),
    });
    expect((await screen.findAllByText("No paid orders in this period.")).length).toBe(2);
    expect(screen.getByText("No data sold or used in this period.")).toBeInTheDocument();
    expect(screen.getByText("The gateways refused no request in this period.")).toBeInTheDocument();
    expect(
      await screen.findByText("No gateway instance has reported in the last minute."),
    ).toBeInTheDocument();
  });

  it("shows each part's error on its own", async () => {
    openConsole("/admin", {
      "GET /admin/overview": () => fail(500, "Overview failed"),
      "GET /admin/network": () => network([instance()]),
    });
    expect(await screen.findByRole("alert")).toHaveTextContent("Overview failed");
    expect(await screen.findByLabelText("Gateways")).toBeInTheDocument();
  });
});
