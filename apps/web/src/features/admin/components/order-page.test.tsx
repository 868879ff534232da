import type { AdminOrderEvent } from "@bytetoll/contracts";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { ok } from "../../../test/api-stub.ts";
import { adminOrderFixture, openConsole } from "../admin-stub.ts";

// The first render of a file loads the lazy route modules, which takes seconds on a busy machine.
const FIRST_RENDER = { timeout: 30_000 };

const ORDER_PATH = "/admin/orders/7d1f2a3b-0000-4000-8000-000000000001";

const providerEvent = (at: string, detail: Record<string, unknown>, summary: string): AdminOrderEvent => ({
  at,
  kind: "provider_event",
  summary,
  detail,
});

describe("an order's provider events", { timeout: 40_000 }, () => {
  it("lists each callback with its time, provider, type, outcome and amount among the other events", async () => {
    const events: AdminOrderEvent[] = [
      {
        at: "2026-11-21T14:30:00.000Z",
        kind: "created",
        summary: "Order made: 30 USD for 10 GB",
        detail: null,
      },
      providerEvent(
        "2026-11-21T14:35:00.000Z",
        {
          provider: "nowpayments",
          event_type: "partially_paid",
          reference: "payment:7000000",
          outcome: "partially_paid",
          amount: 12.5,
          of: 30.02,
          currency: "usdcbase",
        },
        "nowpayments partially_paid: partially paid (12.5 of 30.02 usdcbase)",
      ),
      providerEvent(
        "2026-11-21T14:40:00.000Z",
        {
          provider: "stripe",
          event_type: "charge.refunded",
          reference: "evt_1",
          outcome: "refunded",
          amount: 30,
          of: 30,
          currency: "usd",
        },
        "stripe charge.refunded: refunded (30 of 30 usd)",
      ),
      providerEvent(
        "2026-11-21T14:41:00.000Z",
        {
          provider: "stripe",
          event_type: "charge.refunded",
          reference: "evt_1",
          outcome: "ignored_duplicate",
        },
        "stripe charge.refunded: ignored duplicate",
      ),
    ];
    openConsole(ORDER_PATH, { [`GET ${ORDER_PATH}`]: () => ok({ ...adminOrderFixture(), events }) });
    const rows = await screen.findAllByTestId("provider-event", {}, FIRST_RENDER);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent("nowpayments");
    expect(rows[0]).toHaveTextContent("partially_paid");
    expect(rows[0]).toHaveTextContent("partially paid");
    expect(rows[0]).toHaveTextContent("12.5 of 30.02 USDCBASE");
    expect(rows[1]).toHaveTextContent("charge.refunded");
    expect(within(rows[1]!).getByText("refunded")).toHaveAttribute("data-tone", "bad");
    expect(rows[1]).toHaveTextContent("30 of 30 USD");
    expect(within(rows[2]!).getByText("ignored duplicate")).toHaveAttribute("data-tone", "muted");
    // The other events keep their own line, oldest first.
    expect(screen.getByText("Order made: 30 USD for 10 GB")).toBeInTheDocument();
    const items = within(screen.getByRole("list", { name: "Order events" })).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Order made");
    expect(items[3]).toHaveTextContent("ignored duplicate");
    // The stored record stays one keyboard step away.
    const user = userEvent.setup();
    await user.click(within(items[2]!).getByText("Stored record"));
    expect(within(items[2]!).getByText(/"reference": "evt_1"/)).toBeVisible();
  });
});
