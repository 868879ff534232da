import { type Deal, encodeDealId } from "@bytetoll/contracts";

/** A live flash sale unless `overrides` say otherwise; times relative to now. */
export function dealFixture(overrides: Partial<Deal> = {}): Deal {
  return {
    id: encodeDealId(1),
    deal_type: "flash_sale",
    deal_title: "Black Friday flash sale",
    deal_description: "Mobile data at half price, while stock lasts.",
    deal_price: 0.5,
    status: "live",
    deal_start_time: new Date(Date.now() - 3_600_000).toISOString(),
    deal_end_time: new Date(Date.now() + 2 * 3_600_000).toISOString(),
    deal_reserved_gb: 1000,
    deal_target_gb: 5000,
    ...overrides,
  };
}
