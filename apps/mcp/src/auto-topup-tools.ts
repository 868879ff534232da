import { autoTopupUpdateSchema } from "@bytetoll/contracts";
import type { ByteTollClient } from "@bytetoll/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** Auto top-up by card: read it, set it, open the card page, remove the card. */
export function registerAutoTopupTools(
  server: McpServer,
  sdk: ByteTollClient,
  run: (call: () => Promise<unknown>) => Promise<CallToolResult>,
) {
  server.registerTool(
    "get_auto_topup",
    {
      title: "Auto top-up",
      description:
        "Whether the saved card is charged automatically when the balance runs low: enabled, threshold_gb, " +
        "amount_usd, monthly_cap_usd, the card (brand and last 4 digits, or null), what it charged this month " +
        "and failed charges in a row. Free: reads only, changes nothing.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => run(() => sdk.autoTopup.get()),
  );

  server.registerTool(
    "set_auto_topup",
    {
      title: "Set auto top-up",
      description:
        "Sets every auto top-up field. Saving costs nothing by itself, but enabled it MOVES MONEY: the customer's saved card is charged amount_usd " +
        "each time the balance falls below threshold_gb (at most monthly_cap_usd per calendar month, UTC), " +
        "at once if the balance is already below it. Only turn it on when the customer asked for exactly these " +
        "amounts. Needs a saved card (409 Add a card first).",
      inputSchema: autoTopupUpdateSchema.shape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    (settings) => run(() => sdk.autoTopup.set(settings)),
  );

  server.registerTool(
    "add_auto_topup_card",
    {
      title: "Card page for auto top-up",
      description:
        "The address of the card page (Stripe Checkout) where the customer saves a card for auto top-up; " +
        "give it to the customer to open in their browser. Free: charges nothing.",
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: true },
    },
    () => run(() => sdk.autoTopup.addCard()),
  );

  server.registerTool(
    "remove_auto_topup_card",
    {
      title: "Remove the auto top-up card",
      description: "Removes the saved card, which turns auto top-up off. Free: charges nothing.",
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    () => run(() => sdk.autoTopup.removeCard()),
  );
}
