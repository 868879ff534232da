import type { Database } from "@bytetoll/db";
import type { Config } from "../../config.ts";
import type { ChangeCache } from "../../lib/change-cache.ts";
import type { CheckoutProviders } from "../../lib/payment-provider.ts";
import type { DealsService } from "../deals/index.ts";
import { createCancelOrder } from "./cancel-order.ts";
import { createCheckout } from "./checkout-service.ts";
import { createOrderExpiry } from "./expiry.ts";
import { createOrderHistory } from "./history.ts";
import { createOrderReads } from "./order-reads.ts";
import { orderPublisher } from "./order-view.ts";
import { createReceipts } from "./receipt.ts";
import { createOrdersRepository } from "./repository.ts";
import type { Order, OrderPage } from "./schemas.ts";

interface Deps {
  database: Database;
  config: Pick<Config, "PRICE_PER_GB_USD" | "OPERATOR_NAME" | "OPERATOR_ADDRESS">;
  payments: CheckoutProviders;
  /** Called after every committed order change (realtime `topup-transaction.updated`). */
  publish: (order: Order) => void;
  /** GET /transactions pages (the server's; the CLI reads uncached). */
  pages?: ChangeCache<OrderPage>;
  /** Deal orders: their terms, flash-sale stock taken at checkout and given back at expiry or
   * cancel. */
  deals?: Pick<DealsService, "orderTerms" | "reserve" | "releaseStock">;
}

/** The customer's side of orders: checkout, reads, history, cancelling, receipts and expiry over
 * one repository. Paying them is the payments module's settlement. */
export function createOrdersService({ database, config, payments, publish, pages, deals }: Deps) {
  const repository = createOrdersRepository(database);
  const publishOrder = orderPublisher(publish);
  const expiry = createOrderExpiry({ database, repository, publishOrder, deals });
  const reads = createOrderReads({ repository, expiry, pages });
  const checkout = createCheckout({ config, payments, repository, reads, publishOrder, deals });
  const history = createOrderHistory({ repository, expiry });
  const cancelling = createCancelOrder({ repository, reads, expiry, publishOrder, deals });
  const receipts = createReceipts({ config, reads });
  return { ...reads, ...checkout, ...history, ...cancelling, ...receipts, expireDue: expiry.expireDue };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
