import type { Config } from "../../config.ts";
import { receiptUnavailable } from "./order-errors.ts";
import type { OrderReads } from "./order-reads.ts";
import { toOrderView } from "./order-view.ts";
import type { Receipt } from "./schemas.ts";

interface Deps {
  config: Pick<Config, "OPERATOR_NAME" | "OPERATOR_ADDRESS">;
  reads: Pick<OrderReads, "owned">;
}

/** The address's lines: OPERATOR_ADDRESS breaks at a newline or at the two characters `\n`. */
export function addressLines(address: string): string[] {
  return address
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/** GET /transactions/{orderId}/receipt: a paid order of the caller's, with who issues the receipt. */
export function createReceipts({ config, reads }: Deps) {
  const operator = { name: config.OPERATOR_NAME, address_lines: addressLines(config.OPERATOR_ADDRESS) };
  return {
    async receipt(userId: string, orderId: string): Promise<Receipt> {
      const row = await reads.owned(userId, orderId);
      if (row.paymentStatus !== "paid") throw receiptUnavailable();
      return { order: toOrderView(row), operator };
    },
  };
}
