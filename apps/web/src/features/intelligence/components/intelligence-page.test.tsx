import type { RoutingRule } from "@bytetoll/contracts";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fail, ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { renderRoute } from "../../../test/render-route.tsx";
import { NO_RULES_YET } from "./routing-rules-list.tsx";
import { BEING_CHECKED, NOT_DECIDED } from "./undecided-hostnames.tsx";

const RULES: RoutingRule[] = [
  {
    id: 7,
    rule: "shop.example.com",
    service: "datacenter",
    enabled: true,
    decided_by: "learner",
    verdict: "eligible",
    last_probe_at: "2026-11-20T10:00:00.000Z",
    evidence: {
      source: "probe",
      signal: "served through datacenter like mobile (status 200)",
      observations: [],
    },
    dc_gb_30d: 2,
    saved_usd_30d: 5.4,
    override: null,
  },
  {
    id: 8,
    rule: "bank.example.org",
    service: "premium",
    enabled: false,
    decided_by: "learner",
    verdict: "blocked",
    last_probe_at: "2026-11-20T10:00:00.000Z",
    evidence: { source: "probe", signal: "captcha in page (status 403)", observations: [] },
    dc_gb_30d: 0,
    saved_usd_30d: 0,
    override: null,
  },
];

function openPage(routes: Parameters<typeof stubApi>[0] = {}) {
  signInWithToken("intel-token");
  const api = stubApi({
    "GET /auth/session": ok(TEST_USER),
    "GET /account/status": ok({ balance_gb: 5, balance_bytes: 5e9 }),
    "GET /settings/hostnames": ok({
      hostnames: [{ hostname: "shop.example.com" }, { hostname: "bank.example.org" }],
    }),
    "GET /settings/routing/rules": ok(RULES),
    ...routes,
  });
  renderRoute("/smart-routings");
  return api;
}

const textArea = () => screen.getByRole("textbox", { name: "Hostnames" });

describe("Smart Routing page", () => {
  it("shows the Intelligence settings: the saved hostnames, one per line, and the learned rules", async () => {
    openPage();
    expect(await screen.findByRole("heading", { name: "Smart Routing", level: 1 })).toBeInTheDocument();
    expect(screen.getByRole("heading", { name: "Intelligence" })).toBeInTheDocument();
    expect(screen.getByText(/Intelligence continuously learns/)).toBeInTheDocument();
    await waitFor(() =>
      expect((textArea() as HTMLTextAreaElement).value).toBe("shop.example.com\nbank.example.org"),
    );
    expect(textArea().getAttribute("placeholder")?.split("\n")).toHaveLength(3);
    expect(screen.getByText("One hostname per line")).toBeInTheDocument();
    const list = screen.getByRole("region", { name: "Domains Routed to Datacenter Proxies" });
    const shop = await within(list).findByRole("switch", { name: "shop.example.com" });
    expect(shop.getAttribute("aria-checked")).toBe("true");
    expect(within(list).getByRole("switch", { name: "bank.example.org" }).getAttribute("aria-checked")).toBe(
      "false",
    );
    expect(within(list).getByText(/blocks datacenter .* captcha in page \(status 403\)/)).toBeInTheDocument();
    expect(
      within(list).getByText("2 GB over datacenter in the last 30 days · saved $5.40"),
    ).toBeInTheDocument();
  });

  it("checks the hostnames as the user types and saves the list", async () => {
    const api = openPage({
      "POST /settings/hostnames": ok({ hostnames: [{ hostname: "news.example.net" }] }),
    });
    const user = userEvent.setup();
    await waitFor(() => expect((textArea() as HTMLTextAreaElement).value).not.toBe(""));
    await user.clear(textArea());
    expect(await screen.findByText("At least one hostname is required")).toBeInTheDocument();
    await user.type(textArea(), "shop.example.com{Enter}{Enter}not a host");
    expect(
      await screen.findByText('Please enter valid hostnames (line 3: "not a host")'),
    ).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Save" }).hasAttribute("disabled")).toBe(true);
    await user.clear(textArea());
    await user.type(textArea(), "https://News.example.net/{Enter}{Enter}");
    expect(screen.queryByRole("alert")).toBeNull();
    // A double click: both clicks land before the button is drawn disabled; one request goes.
    const save = screen.getByRole("button", { name: "Save" });
    fireEvent.click(save);
    fireEvent.click(save);
    expect(await screen.findByText("Hostnames saved")).toBeInTheDocument();
    expect(api.callsTo("POST", "/settings/hostnames")).toHaveLength(1);
    expect(api.callsTo("POST", "/settings/hostnames")[0]?.body).toEqual({ hostnames: ["news.example.net"] });
  });

  it("says what is happening to a saved hostname the learner has not decided: being checked in its first minute, then that the checks could not tell", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let saved = ["shop.example.com", "quiet.example.net"];
      const listed = () => ok({ hostnames: saved.map((hostname) => ({ hostname })) });
      openPage({
        "GET /settings/hostnames": listed,
        "POST /settings/hostnames": () => {
          saved = [...saved, "new.example.io"];
          return listed();
        },
      });
      const list = await screen.findByRole("region", { name: "Domains Routed to Datacenter Proxies" });
      // Saved before this visit and still without a verdict: not "within a minute" for ever.
      const undecided = await within(list).findByRole("list", { name: "Hostnames not decided yet" });
      expect(within(undecided).getByText("quiet.example.net").nextSibling).toHaveTextContent(NOT_DECIDED);
      expect(within(list).queryByText(NO_RULES_YET)).toBeNull();
      expect(await within(list).findByRole("switch", { name: "shop.example.com" })).toBeInTheDocument();

      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      await waitFor(() => expect((textArea() as HTMLTextAreaElement).value).not.toBe(""));
      await user.type(textArea(), "{Enter}new.example.io");
      await user.click(screen.getByRole("button", { name: "Save" }));
      await screen.findByText("Hostnames saved");
      const added = await within(undecided).findByText("new.example.io");
      expect(added.nextSibling).toHaveTextContent(BEING_CHECKED);
      expect(within(undecided).getByText("quiet.example.net").nextSibling).toHaveTextContent(NOT_DECIDED);

      // The first minute passes and the learner has still not decided.
      await act(async () => {
        vi.advanceTimersByTime(61_000);
      });
      await waitFor(() => expect(added.nextSibling).toHaveTextContent(NOT_DECIDED));
    } finally {
      vi.useRealTimers();
    }
  });

  it("says there are no domains yet only when no hostname is saved either", async () => {
    openPage({ "GET /settings/hostnames": ok({ hostnames: [] }), "GET /settings/routing/rules": ok([]) });
    expect(await screen.findByText(NO_RULES_YET)).toBeInTheDocument();
  });

  it.each([
    [
      "a body that is not JSON",
      () => new Response("<html>login</html>", { status: 200 }),
      "Unauthorized or unexpected response",
    ],
    [
      "success: false",
      () => Response.json({ success: false, message: "nope" }),
      "API returned success: false",
    ],
    ["a refused token", () => fail(401, "Unauthorized"), "Unauthorized or unexpected response"],
  ])("says why the saved hostnames could not be read: %s", async (_what, reply, message) => {
    openPage({ "GET /settings/hostnames": reply, "GET /auth/session": ok(TEST_USER) });
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it("says so when saving fails", async () => {
    openPage({ "POST /settings/hostnames": fail(500, "Internal server error") });
    const user = userEvent.setup();
    await waitFor(() => expect((textArea() as HTMLTextAreaElement).value).not.toBe(""));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText(/Failed to save hostnames/)).toBeInTheDocument();
  });

  it("a toggle switches at once, is put back when the server refuses, and the list is read again", async () => {
    let answer: (response: Response) => void = () => {};
    const api = openPage({
      "PATCH /settings/routing/rules/7": () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    const user = userEvent.setup();
    const shop = await screen.findByRole("switch", { name: "shop.example.com" });
    const readsBefore = api.callsTo("GET", "/settings/routing/rules").length;
    await user.click(shop);
    expect(shop.getAttribute("aria-checked")).toBe("false");
    expect(api.callsTo("PATCH", "/settings/routing/rules/7")[0]?.body).toEqual({ enabled: false });
    answer(fail(500, "Internal server error"));
    expect(await screen.findByText("Failed to update routing rule")).toBeInTheDocument();
    await waitFor(() => expect(shop.getAttribute("aria-checked")).toBe("true"));
    await waitFor(() =>
      expect(api.callsTo("GET", "/settings/routing/rules").length).toBeGreaterThan(readsBefore),
    );
  });
});

describe("the operator's decision", () => {
  it("is what the page says routing does, on a rule and on a host name the learner has not decided", async () => {
    openPage({
      "GET /settings/hostnames": ok({
        hostnames: [
          { hostname: "bank.example.org", override: "datacenter" },
          { hostname: "new.example.net", override: "datacenter" },
        ],
      }),
      "GET /settings/routing/rules": ok([{ ...RULES[1], override: "datacenter" }]),
    });
    expect(
      await screen.findByText(
        /^Operator: datacenter, whatever this switch says · Learner: blocks datacenter/,
      ),
    ).toBeInTheDocument();
    const undecided = await screen.findByTestId("undecided-hostname");
    expect(undecided).toHaveTextContent(
      "Operator: datacenter. The operator sends this domain over datacenter for every customer using Intelligence.",
    );
    expect(undecided).not.toHaveTextContent(NOT_DECIDED);
  });
});
