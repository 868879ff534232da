import type { MarginRow, Upstream } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const exit = (overrides: Partial<Upstream> = {}): Upstream => ({
  id: "0b7c3f57-7a57-4a8e-9c53-5d6b6f1a2c3d",
  name: "tiny-de",
  pool: "mobile",
  url: "http://u:****@exit.example:3128",
  countries: ["DE"],
  cost_per_gb_usd: 2,
  weight: 3,
  monthly_budget_gb: null,
  enabled: true,
  source: "console",
  state: "up",
  month_bytes: 0,
  last_hour: { bytes: 2_500_000_000, connects: 40, failures: 2, median_connect_ms: 80 },
  ...overrides,
});

const margin = (key: string, label: string, billed: number, cost: number): MarginRow => ({
  key,
  label,
  bytes: 1_000_000_000,
  billed_bytes: 1_000_000_000,
  billed_usd: billed,
  cost_usd: cost,
  margin_usd: Math.round((billed - cost) * 1e6) / 1e6,
});

describe("the Exits page", { timeout: 40_000 }, () => {
  it("shows skeletons while it loads", async () => {
    openConsole("/admin/exits", { "GET /admin/upstreams": never });
    expect(await screen.findByRole("status", { name: "Loading exits" }, FIRST_RENDER)).toBeInTheDocument();
  });

  it("lists each exit's state, last hour and cost (the environment's read-only) and disables one only after the confirmation", async () => {
    let enabled = true;
    const api = openConsole("/admin/exits", {
      "GET /admin/upstreams": () =>
        ok([
          exit({
            id: "env:mobile:0",
            name: "direct",
            url: "direct",
            countries: [],
            source: "environment",
            cost_per_gb_usd: 0,
            weight: 1,
          }),
          exit({ enabled, state: enabled ? "up" : "disabled" }),
        ]),
      [`PATCH /admin/upstreams/${exit().id}`]: (_url, body) => {
        enabled = (body as { enabled: boolean }).enabled;
        return ok(exit({ enabled }));
      },
    });
    const table = await screen.findByRole("table", { name: "Exits" }, FIRST_RENDER);
    const rows = within(table).getAllByRole("row").slice(1);
    expect(rows[0]).toHaveTextContent("From the environment (read-only)");
    expect(rows[1]).toHaveTextContent("Mobile · DE");
    expect(rows[1]).toHaveTextContent("2.5 GB · 40 (2 failed)");
    expect(rows[1]).toHaveTextContent("$2/GB");
    const user = userEvent.setup();
    await user.click(within(table).getByRole("button", { name: "Disable tiny-de" }));
    const dialog = await screen.findByRole("dialog", { name: "Disable “tiny-de”" });
    expect(api.to("PATCH", `/admin/upstreams/${exit().id}`)).toHaveLength(0);
    await user.click(within(dialog).getByRole("button", { name: "Disable exit" }));
    expect(await within(table).findByRole("button", { name: "Enable tiny-de" })).toBeInTheDocument();
    expect(api.to("PATCH", `/admin/upstreams/${exit().id}`)[0]?.body).toEqual({ enabled: false });
  });

  it("shows a failed load's message", async () => {
    openConsole("/admin/exits", { "GET /admin/upstreams": () => fail(500, "Exits failed") });
    expect(await screen.findByRole("alert", {}, FIRST_RENDER)).toHaveTextContent("Exits failed");
  });
});

describe("the Margins page", { timeout: 40_000 }, () => {
  it("marks an exit and a customer whose traffic lost money", async () => {
    const report = (rows: MarginRow[]) => {
      const sum = (pick: (row: MarginRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
      return ok({
        rows,
        total: margin(
          "total",
          "Total",
          sum((r) => r.billed_usd),
          sum((r) => r.cost_usd),
        ),
      });
    };
    openConsole("/admin/margins", {
      "GET /admin/margins": (url) => {
        const group = url.searchParams.get("group_by");
        if (group === "day")
          return report([
            margin("2026-11-27", "2026-11-27", 3, 2),
            margin("2026-11-28", "2026-11-28", 0.3, 2),
          ]);
        if (group === "upstream")
          return report([margin("a", "cheap-dc", 3, 0.5), margin("b", "mobile-de", 0.3, 2)]);
        if (group === "pool") return report([margin("mobile", "mobile", 3.3, 4)]);
        return report([margin("c1", "dc-heavy@example.com", 0.3, 2)]);
      },
    });
    const byExit = await screen.findByRole("table", { name: "By exit" }, FIRST_RENDER);
    const rows = within(byExit).getAllByRole("row").slice(1);
    expect(rows[0]).not.toHaveTextContent("Loss");
    expect(rows[1]).toHaveTextContent("mobile-de");
    expect(rows[1]).toHaveTextContent("Loss");
    expect(
      within(await screen.findByRole("table", { name: "By customer" })).getAllByText("Loss").length,
    ).toBeGreaterThan(0);
    expect(screen.getByRole("table", { name: "Billed and cost by day" })).toBeInTheDocument();
  });
});
