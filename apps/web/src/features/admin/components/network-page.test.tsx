import type { AdminDomain, UpstreamHealth } from "@bytetoll/contracts";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { listOf, never, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const upstream = (overrides: Partial<UpstreamHealth> = {}): UpstreamHealth => ({
  pool: "mobile",
  upstream_id: "http://exit-1.example:8000",
  status: "up",
  down_on: [],
  attempts: 200,
  failures: 3,
  success_rate: 0.985,
  median_connect_ms: 142.4,
  bytes: 2_500_000_000,
  ...overrides,
});

const domain = (overrides: Partial<AdminDomain> = {}): AdminDomain => ({
  domain: "shop.example",
  verdict: "blocked",
  override: null,
  evidence: {
    source: "probe",
    signal: "status 403",
    observations: [
      {
        at: "2026-11-21T10:00:00.000Z",
        pool: "dc",
        url: "https://shop.example/",
        status: 403,
        bytes: 512,
        signal: "status 403",
        error: null,
      },
    ],
  },
  last_probe_at: "2026-11-21T10:00:00.000Z",
  next_probe_at: "2026-11-22T10:00:00.000Z",
  failed_probes: 0,
  rules: 4,
  updated_at: "2026-11-21T10:00:00.000Z",
  ...overrides,
});

const network = (upstreams: UpstreamHealth[]) =>
  ok({
    generated_at: "2026-11-21T10:00:00.000Z",
    window_minutes: 60,
    instances: [
      {
        instance_id: "gw-a",
        started_at: "2026-11-21T08:00:00.000Z",
        updated_at: "2026-11-21T10:00:00.000Z",
        live_connections: 5,
        bytes_per_second: 2000,
        flush_lag_seconds: 1,
        refusals: {},
      },
    ],
    upstreams,
  });

describe("the Network page", { timeout: 40_000 }, () => {
  it("shows skeletons while it loads", async () => {
    openConsole("/admin/network", { "GET /admin/network": never, "GET /admin/intelligence/domains": never });
    expect(await screen.findByRole("status", { name: "Loading network" }, FIRST_RENDER)).toBeInTheDocument();
    expect(screen.getByRole("status", { name: "Loading domains" })).toBeInTheDocument();
  });

  it("shows instances and each upstream's success rate, median connect, bytes and state", async () => {
    openConsole("/admin/network", {
      "GET /admin/network": () =>
        network([
          upstream(),
          upstream({
            pool: "dc",
            upstream_id: "direct",
            status: "down",
            down_on: ["gw-a"],
            success_rate: 0.1,
            median_connect_ms: null,
          }),
        ]),
      "GET /admin/intelligence/domains": () => listOf([]),
    });
    const table = await screen.findByRole("table", { name: "Upstreams" });
    const rows = within(table)
      .getAllByRole("row")
      .slice(1)
      .map((row) => row.textContent);
    expect(rows[0]).toBe("Mobilehttp://exit-1.example:8000Up98.5%200 (3 failed)142 ms2.5 GB");
    expect(rows[1]).toContain("Downdown on 1");
    expect(rows[1]).toContain("10%");
    expect(
      within(screen.getByRole("table", { name: "Gateway instances" })).getByText("2 KB/s"),
    ).toBeInTheDocument();
    expect(screen.getByText("Intelligence has not judged any domain yet.")).toBeInTheDocument();
  });

  it("says when no upstream carried traffic, and shows a failed load's message", async () => {
    openConsole("/admin/network", {
      "GET /admin/network": () => network([]),
      "GET /admin/intelligence/domains": () => fail(500, "Domains failed"),
    });
    expect(await screen.findByText("No upstream has carried traffic in the last hour.")).toBeInTheDocument();
    expect(await screen.findByRole("alert")).toHaveTextContent("Domains failed");
  });

  it("shows a verdict's evidence and forces a domain over datacenter after confirmation", async () => {
    let override: AdminDomain["override"] = null;
    const api = openConsole("/admin/network", {
      "GET /admin/network": () => network([]),
      "GET /admin/intelligence/domains": () => listOf([domain({ override })]),
      "PUT /admin/intelligence/domains/shop.example/override": (_url, body) => {
        override = (body as { override: AdminDomain["override"] }).override;
        return ok(domain({ override }));
      },
    });
    const table = await screen.findByRole("table", { name: "Intelligence domains" });
    expect(within(table).getByText(/status 403 · probe/)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.selectOptions(within(table).getByLabelText("Override for shop.example"), "datacenter");
    const dialog = await screen.findByRole("dialog", { name: "Force datacenter for shop.example" });
    expect(dialog).toHaveTextContent(
      "every customer's requests to shop.example and the names below it go over datacenter",
    );
    await user.click(within(dialog).getByRole("button", { name: "Apply" }));
    await waitFor(() =>
      expect(api.to("PUT", "/admin/intelligence/domains/shop.example/override")[0]?.body).toEqual({
        override: "datacenter",
      }),
    );
    await waitFor(() =>
      expect(within(table).getByLabelText("Override for shop.example")).toHaveValue("datacenter"),
    );
  });

  it("searches domains on the server", async () => {
    const api = openConsole("/admin/network", {
      "GET /admin/network": () => network([]),
      "GET /admin/intelligence/domains": () => listOf([domain()]),
    });
    await screen.findByRole("table", { name: "Intelligence domains" });
    const user = userEvent.setup();
    await user.type(screen.getByRole("searchbox", { name: "Search domains" }), "shop");
    await user.selectOptions(screen.getByLabelText("Verdict"), "blocked");
    await user.click(screen.getByRole("button", { name: "Filter" }));
    await waitFor(() =>
      expect(
        Object.fromEntries(api.to("GET", "/admin/intelligence/domains").at(-1)!.url.searchParams),
      ).toEqual({
        page: "1",
        per_page: "25",
        search: "shop",
        verdict: "blocked",
      }),
    );
  });
});
