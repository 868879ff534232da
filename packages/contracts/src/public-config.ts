import { z } from "zod";
import { successEnvelope } from "./envelope.ts";
import { ORDER_PROVIDERS } from "./order-constants.ts";

/** GET /config: operator-configured numbers and links the page shows instead of copies. */
export const publicConfigSchema = z.object({
  price_per_gb_usd: z.number(),
  dc_price_per_gb_usd: z.number(),
  free_gb: z.number(),
  gateway: z.object({
    host: z.string(),
    http_port: z.number().int(),
    https_port: z.number().int(),
    /** The SOCKS5 port (null: the operator turned SOCKS5 off). */
    socks_port: z.number().int().nullable(),
    /** Countries (ISO 3166-1 alpha-2, upper case) the configured exits name with `?country=`:
     * what the Connect page offers for `-country-`. */
    exit_countries: z.array(z.string()).optional(),
  }),
  docs_url: z.string(),
  support_url: z.string(),
  terms_url: z.string(),
  privacy_url: z.string(),
  /** Where the Promotions share links point. */
  marketing_url: z.string(),
  /** The Connect page's "Node.js SDK", "PHP SDK" and "MCP server" links. */
  node_sdk_url: z.string(),
  php_sdk_url: z.string(),
  mcp_server_url: z.string(),
  /** Who a checkout pays through, named on the page: USDC through the sandbox or NOWPayments
   * (CRYPTO_PROVIDER), cards through Stripe or the sandbox card page (null: card payments are off). */
  crypto_provider: z.enum(ORDER_PROVIDERS),
  card_provider: z.enum(ORDER_PROVIDERS).nullable(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
export const publicConfigResponse = successEnvelope(publicConfigSchema);
export type PublicConfigResponse = z.infer<typeof publicConfigResponse>;
