import { createOrderRequest, historyQuery, listOrdersQuery, NETWORKS } from "@bytetoll/contracts";
import type { ByteTollClient } from "@bytetoll/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { FREE, readOnly, run } from "./tool-kit.ts";

const { amount, deal_id, quantity } = createOrderRequest.shape;
const cryptoOrder = z.object({
  amount,
  network_type: z.enum(NETWORKS, { error: "network_type must be one of solana, polygon, base, ethereum" }),
  deal_id,
  quantity,
});

/** Top-up orders: read them, and create a crypto order (never paid by the tool). */
export function registerOrderTools(server: McpServer, sdk: ByteTollClient, appUrl: string) {
  server.registerTool(
    "list_transactions",
    {
      title: "Top-up orders",
      description: `Your top-up orders (crypto and card), newest first, a page at a time. ${FREE}`,
      inputSchema: listOrdersQuery,
      annotations: readOnly,
    },
    (query) => run(() => sdk.transactions.list(query)),
  );

  server.registerTool(
    "list_history",
    {
      title: "Balance history",
      description:
        "Your orders and the balance changes that are not orders (the free GB of a new account, operator " +
        `adjustments, group-buy deposits credited, refunds and chargebacks), newest first, a page at a time. ${FREE}`,
      inputSchema: historyQuery,
      annotations: readOnly,
    },
    (query) => run(() => sdk.transactions.history(query)),
  );

  server.registerTool(
    "get_transaction",
    {
      title: "One order",
      description: `One top-up order and its payment status. ${FREE}`,
      inputSchema: z.object({ order_id: z.string().min(1).max(64) }),
      annotations: readOnly,
    },
    ({ order_id }) => run(() => sdk.transactions.get(order_id)),
  );

  server.registerTool(
    "create_crypto_order",
    {
      title: "Create a USDC top-up order",
      description:
        "Creates an order to buy data with USDC on solana, polygon, base or ethereum and returns the pay " +
        "address, the exact USDC amount and a checkout link. It never pays: a person sends the USDC. " +
        "Creates a pending order (it expires after 60 minutes unpaid); costs nothing by itself.",
      inputSchema: cryptoOrder,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (request) =>
      run(async () => {
        const order = await sdk.transactions.createCryptoOrder(request);
        return {
          order_id: order.order_id,
          pay_address: order.pay_address,
          amount_usdc: order.price_amount,
          payment_token: order.payment_token,
          amount_usd: order.amount_usd,
          gb: order.gb,
          expires_at: order.expires_at,
          checkout_url: `${appUrl.replace(/\/+$/, "")}/checkout?order_id=${encodeURIComponent(order.order_id)}`,
        };
      }),
  );

  server.registerTool(
    "cancel_order",
    {
      title: "Cancel an unpaid order",
      description:
        "Changes an order: cancels one of your top-up orders that is still waiting for its payment, so it " +
        "can no longer be paid; this cannot be undone. Costs nothing. A paid, expired or already cancelled " +
        "order is refused and stays as it is; a payment that still arrives for a cancelled order is credited.",
      inputSchema: z.object({ order_id: z.string().min(1).max(64).describe("The order's id") }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    ({ order_id }) => run(() => sdk.transactions.cancel(order_id)),
  );
}
