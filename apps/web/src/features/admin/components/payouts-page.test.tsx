import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fail, ok } from "../../../test/api-stub.ts";
import { listOf, never, openConsole, payoutFixture } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const PAYOUT = payoutFixture();
const SENT_PATH = `/admin/payouts/${PAYOUT.id}/sent`;
const HASH = "0x9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a9f2c4e1a";

describe("the Payouts page", { timeout: 40_000 }, () => {
  it("shows a skeleton while the queue loads", async () => {
    openConsole("/admin/payouts", { "GET /admin/payouts": never });
    expect(await screen.findByRole("status", { name: "Loading payouts" }, FIRST_RENDER)).toBeInTheDocument();
  });

  it("opens on the pending queue and says when there is nothing to pay", async () => {
    const api = openConsole("/admin/payouts", { "GET /admin/payouts": () => listOf([]) });
    expect(await screen.findByText("Nothing to pay: no pending payouts.")).toBeInTheDocument();
    expect(api.to("GET", "/admin/payouts")[0]!.url.searchParams.get("status")).toBe("pending");
  });

  it("shows the API's message when the queue cannot load", async () => {
    openConsole("/admin/payouts", { "GET /admin/payouts": () => fail(500, "Internal error") });
    expect(await screen.findByRole("alert")).toHaveTextContent("Internal error");
  });

  it("marks a payout sent only with its transaction hash", async () => {
    let status: "pending" | "sent" = "pending";
    const api = openConsole("/admin/payouts", {
      "GET /admin/payouts": () => listOf(status === "pending" ? [PAYOUT] : []),
      [`POST ${SENT_PATH}`]: () => {
        status = "sent";
        return ok({ ...PAYOUT, status: "sent", tx_hash: HASH });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Mark sent" }));
    const dialog = await screen.findByRole("dialog", { name: "Mark payout sent" });
    expect(dialog).toHaveTextContent(
      "Records that you sent 120.00 USDC ($120) to 0x1111222233334444555566667777888899990000",
    );
    await user.click(within(dialog).getByRole("button", { name: "Mark sent" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("Enter the transaction hash of the payout.");
    // "junk" is no transaction hash: refused here, the server is not asked.
    const field = within(dialog).getByLabelText("Transaction hash");
    await user.type(field, "junk");
    await user.click(within(dialog).getByRole("button", { name: "Mark sent" }));
    expect(within(dialog).getByRole("alert")).toHaveTextContent("That is not a transaction hash");
    expect(api.to("POST", SENT_PATH)).toHaveLength(0);

    // A valid hash clears the complaint as it is typed.
    await user.clear(field);
    await user.type(field, HASH);
    expect(within(dialog).queryByRole("alert")).toBeNull();
    await user.click(within(dialog).getByRole("button", { name: "Mark sent" }));
    expect(await screen.findByText("Recorded 120.00 USDC as sent")).toBeInTheDocument();
    expect(api.to("POST", SENT_PATH)[0]!.body).toEqual({ tx_hash: HASH });
    expect(await screen.findByText("Nothing to pay: no pending payouts.")).toBeInTheDocument();
  });

  it("marks a payout failed after saying the customer can withdraw again", async () => {
    const api = openConsole("/admin/payouts", {
      "GET /admin/payouts": () => listOf([PAYOUT]),
      [`POST /admin/payouts/${PAYOUT.id}/failed`]: () => ok({ ...PAYOUT, status: "failed" }),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole("button", { name: "Mark failed" }));
    const dialog = await screen.findByRole("dialog", { name: "Mark payout failed" });
    expect(dialog).toHaveTextContent("The deposit becomes withdrawable by the customer again.");
    await user.click(within(dialog).getByRole("button", { name: "Mark failed" }));
    await waitFor(() => expect(api.to("POST", `/admin/payouts/${PAYOUT.id}/failed`)).toHaveLength(1));
  });

  it("names each payout's customer by e-mail, linked to their page", async () => {
    openConsole("/admin/payouts", { "GET /admin/payouts": () => listOf([PAYOUT]) });
    const link = await screen.findByRole("link", { name: "payee@example.com" }, FIRST_RENDER);
    expect(link).toHaveAttribute("href", `/admin/customers/${PAYOUT.user_id}`);
    expect(screen.queryByText("Customer page")).toBeNull();
  });

  it("shows sent payouts with their hash, from the URL", async () => {
    const api = openConsole("/admin/payouts?status=sent", {
      "GET /admin/payouts": () => listOf([{ ...PAYOUT, status: "sent", tx_hash: "0xfeedbeef00" }]),
    });
    expect(await screen.findByText("0xfeed…ef00")).toBeInTheDocument();
    expect(api.to("GET", "/admin/payouts")[0]!.url.searchParams.get("status")).toBe("sent");
    expect(screen.getByRole("button", { name: "Sent" })).toHaveAttribute("aria-pressed", "true");
  });

  it("pages through the queue on the server, the page kept in the URL, and starts a status at page 1", async () => {
    const api = openConsole("/admin/payouts?page=2", {
      "GET /admin/payouts": (url) =>
        listOf(
          [payoutFixture({ id: `p-${url.searchParams.get("page")}` })],
          60,
          Number(url.searchParams.get("page")),
          25,
        ),
    });
    const pages = await screen.findByRole("navigation", { name: "Payout pages" });
    expect(pages).toHaveTextContent("26–50 of 60");
    expect(api.to("GET", "/admin/payouts")[0]!.url.searchParams.get("page")).toBe("2");
    expect(api.to("GET", "/admin/payouts")[0]!.url.searchParams.get("per_page")).toBe("25");

    const user = userEvent.setup();
    await user.click(within(pages).getByRole("link", { name: "Next" }));
    await waitFor(() => expect(api.router.state.location.search).toBe("?page=3"));
    await waitFor(() =>
      expect(api.to("GET", "/admin/payouts").at(-1)!.url.searchParams.get("page")).toBe("3"),
    );

    await user.click(screen.getByRole("button", { name: "Failed" }));
    await waitFor(() => expect(api.router.state.location.search).toBe("?status=failed"));
    const last = api.to("GET", "/admin/payouts").at(-1)!.url.searchParams;
    expect([last.get("status"), last.get("page")]).toEqual(["failed", "1"]);
  });
});
