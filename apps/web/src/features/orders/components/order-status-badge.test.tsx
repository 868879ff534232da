import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { OrderStatusBadge, orderStatusDisplay } from "./order-status-badge.tsx";

describe("order status badge", () => {
  it.each([
    ["waiting", "Unpaid", "unpaid"],
    [null, "Unpaid", "unpaid"],
    ["", "Unpaid", "unpaid"],
    ["paid", "Paid", "paid"],
    ["failed", "Failed", "failed"],
    ["expired", "Expired", "other"],
    ["partially_paid", "Partially paid", "other"],
    ["refunded", "Refunded", "other"],
  ])("shows %s as %s", (status, label, tone) => {
    expect(orderStatusDisplay(status)).toEqual({ label, tone });
  });

  it("colours paid green and failed red", () => {
    render(
      <>
        <OrderStatusBadge status="paid" />
        <OrderStatusBadge status="failed" />
      </>,
    );
    const [paid, failed] = screen.getAllByTestId("order-status");
    expect(paid?.className).toContain("emerald");
    expect(failed?.className).toContain("red");
  });
});
