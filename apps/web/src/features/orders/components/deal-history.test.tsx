import { encodeDealId, type Payout } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ok, signInWithToken, stubApi, TEST_USER } from "../../../test/api-stub.ts";
import { historyOf, orderFixture, pageOf } from "../../../test/order-fixture.ts";
import { renderRoute } from "../../../test/render-route.tsx";

const deal = encodeDealId(3);

function payout(overrides: Partial<Payout>): Payout {
  return {
    id: "p1",
    user_id: TEST_USER.id,
    deal_id: deal,
    kind: "withdrawal",
    amount_usd: 100,
    wallet_address: "0x52908400098527886E0F7030069857D2E4169EE7",
    status: "pending",
    tx_hash: null,
    created_at: "2026-11-21T14:30:00Z",
    updated_at: "2026-11-21T14:30:00Z",
    ...overrides,
  };
}

describe("history of deal money", () => {
  it("shows deposits, flash-sale purchases, payouts and refunds as their own kinds", async () => {
    signInWithToken();
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
      "GET /transactions": Response.json(pageOf([])),
      "GET /history": Response.json(
        historyOf([
          orderFixture({ order_id: "d", deal_id: deal, quantity: null }),
          orderFixture({ order_id: "f", deal_id: encodeDealId(4), quantity: 2 }),
        ]),
      ),
      "GET /payouts": ok([
        payout({ id: "w" }),
        payout({ id: "r", kind: "refund", status: "sent", amount_usd: 50 }),
      ]),
    });
    renderRoute("/");
    const history = await screen.findByRole("region", { name: "Transaction History" });
    const rows = await within(history).findAllByTestId("history-row");
    expect(rows.map((row) => within(row).getAllByRole("cell")[1]?.textContent)).toEqual([
      "Deposit",
      "Flash sale",
    ]);
    const payouts = await screen.findByRole("region", { name: "Payouts and Refunds" });
    const lines = within(payouts)
      .getAllByTestId("payout-row")
      .map((row) => row.textContent);
    expect(lines[0]).toMatch(/^Payout.*\$100.*0x5290…9EE7Pending$/);
    expect(lines[1]).toMatch(/^Refund.*\$50.*Sent$/);
  });

  it("shows a sent payout's transaction hash, linked to its explorer", async () => {
    const evm = `0x${"9f2c4e1a".repeat(8)}`;
    const solana = `5${"K".repeat(87)}`;
    signInWithToken();
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
      "GET /transactions": Response.json(pageOf([])),
      "GET /history": Response.json(historyOf([])),
      "GET /payouts": ok([
        payout({ id: "e", status: "sent", tx_hash: evm }),
        payout({ id: "s", status: "sent", tx_hash: solana, wallet_address: "7".repeat(44) }),
      ]),
    });
    renderRoute("/");
    const payouts = await screen.findByRole("region", { name: "Payouts and Refunds" });
    const onEvm = await within(payouts).findByRole("link", { name: `Transaction ${evm} on the explorer` });
    expect(onEvm).toHaveAttribute("href", `https://blockscan.com/tx/${evm}`);
    expect(onEvm).toHaveTextContent("0x9f2c…4e1a");
    expect(
      within(payouts).getByRole("link", { name: `Transaction ${solana} on the explorer` }),
    ).toHaveAttribute("href", `https://solscan.io/tx/${solana}`);
  });

  it("says a withdrawn deposit is Withdrawn and a credited one Credited, with the deal's title and no id", async () => {
    signInWithToken();
    stubApi({
      "GET /auth/session": ok(TEST_USER),
      "GET /account/status": ok({ balance_gb: 1, balance_bytes: 1e9 }),
      "GET /transactions": Response.json(pageOf([])),
      "GET /history": Response.json(
        historyOf([
          {
            kind: "deposit",
            id: "ledger:9",
            created_at: "2026-11-22T10:00:00Z",
            gb: 100,
            note: `Group buy ${encodeDealId(5)}: Mobile at $1/GB`,
            order_id: "credited",
          },
          orderFixture({
            order_id: "credited",
            deal_id: encodeDealId(5),
            quantity: null,
            payment_status: "paid",
          }),
          orderFixture({ order_id: "withdrawn", deal_id: deal, quantity: null, payment_status: "paid" }),
        ]),
      ),
      "GET /payouts": ok([payout({ id: "w", created_at: "2026-11-23T10:00:00Z" })]),
    });
    renderRoute("/");
    const history = await screen.findByRole("region", { name: "Transaction History" });
    await within(history).findByText("Withdrawn");
    const rows = within(history).getAllByTestId("history-row");
    const statuses = rows.map((row) => within(row).getByTestId("order-status").textContent);
    expect(statuses).toEqual(["Credited", "Credited", "Withdrawn"]);
    expect(rows[0]).toHaveTextContent("Group buy: Mobile at $1/GB");
    expect(rows[0]).not.toHaveTextContent(encodeDealId(5));
  });
});
