import { publicConfigResponse } from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { consoleExitCountries } from "./exit-countries.ts";
import { integrationGuideRoutes } from "./integration-guide.ts";

/** GET /config (decision 001): numbers and links the page shows, from the operator's config. */
export async function publicConfigRoutes(app: App) {
  const { config } = app;
  const environmentCountries = [
    ...new Set(
      [...config.gateway.mobileUpstreams, ...config.gateway.datacenterUpstreams].flatMap(
        (upstream) => upstream.countries ?? [],
      ),
    ),
  ].sort();
  const countries = consoleExitCountries(app, environmentCountries);
  // The SDK and MCP links' default destination comes with the links.
  await app.register(integrationGuideRoutes);
  const body = {
    success: true as const,
    data: {
      price_per_gb_usd: config.PRICE_PER_GB_USD,
      dc_price_per_gb_usd: config.DC_PRICE_PER_GB_USD,
      free_gb: config.FREE_GB,
      gateway: {
        host: config.GATEWAY_HOST,
        http_port: config.GATEWAY_HTTP_PORT,
        https_port: config.GATEWAY_HTTPS_PORT,
        socks_port: config.gateway.socksPort,
        exit_countries: environmentCountries,
      },
      docs_url: config.DOCS_URL,
      support_url: config.SUPPORT_URL,
      terms_url: config.TERMS_URL,
      privacy_url: config.PRIVACY_URL,
      marketing_url: config.MARKETING_URL,
      node_sdk_url: config.NODE_SDK_URL,
      php_sdk_url: config.PHP_SDK_URL,
      mcp_server_url: config.MCP_SERVER_URL,
      crypto_provider: app.payments.crypto.name,
      card_provider: app.payments.card?.name ?? null,
    },
  };
  app.get(
    "/config",
    {
      schema: { tags: ["config"], summary: "Public configuration", response: { 200: publicConfigResponse } },
    },
    async () => ({
      ...body,
      data: { ...body.data, gateway: { ...body.data.gateway, exit_countries: await countries() } },
    }),
  );
}
