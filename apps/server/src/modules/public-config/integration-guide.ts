import { INTEGRATION_GUIDE_PATH } from "../../config.ts";
import { escapeHtml } from "../../lib/html-escape.ts";
import type { App } from "../../types.ts";
import {
  mcpClientConfig,
  nodeExample,
  nodeInstallCommand,
  phpExample,
  phpInstallCommand,
  urlHost,
} from "./integration-examples.ts";
import { htmlPage } from "./page-shell.ts";

/** Where the API reference (Swagger UI) and its OpenAPI document live (plugins/api-docs.ts). */
const API_REFERENCE_PATH = "/docs";
const OPENAPI_PATH = "/docs/json";

/** The calls an agent needs most; a test checks each is in the OpenAPI document as written. */
export const AGENT_ENDPOINTS = [
  { method: "GET", path: "/account/status", auth: true, what: "Balance in GB and bytes." },
  {
    method: "GET",
    path: "/proxies/usage",
    auth: true,
    what: "Usage: group_by=day, domain or proxy_type; days=1, 7, 14, 30 or 90.",
  },
  {
    method: "GET",
    path: "/proxies/usage/export",
    auth: true,
    what: "Usage as CSV, one line per day, domain and proxy type.",
  },
  { method: "GET", path: "/credentials/latest", auth: true, what: "Proxy username and password." },
  {
    method: "POST",
    path: "/credentials/regenerate",
    auth: true,
    what: "A new proxy password; the old one stops working.",
  },
  { method: "GET", path: "/gateway", auth: false, what: "Proxy host, IP address and ports." },
  { method: "GET", path: "/config", auth: false, what: "Prices per GB and the free allowance." },
  { method: "GET", path: "/transactions", auth: true, what: "Top-up orders, newest first." },
  { method: "GET", path: "/transactions/{orderId}", auth: true, what: "One order and its status." },
  {
    method: "POST",
    path: "/transactions",
    auth: true,
    what: "Create a top-up order (USDC or card); a person still pays it.",
  },
] as const;

/** A code block: it scrolls sideways, so it takes keyboard focus and has a name (WCAG 2.1.1). */
const code = (label: string, text: string) =>
  `<pre tabindex="0" role="region" aria-label="${escapeHtml(label)}"><code>${escapeHtml(text)}</code></pre>`;

const referenceLink = `<p>Every endpoint, with its parameters and answers: <a href="${API_REFERENCE_PATH}">API reference</a>.</p>`;

/** The guide for this installation: examples use its APP_URL and gateway address. */
export function integrationGuideHtml(input: { appUrl: string; gatewayHost: string; httpPort: number }) {
  const apiUrl = input.appUrl;
  const proxyUrl = `http://${urlHost(input.gatewayHost)}:${input.httpPort}`;
  const app = escapeHtml(apiUrl);
  const endpointRows = AGENT_ENDPOINTS.map(
    (endpoint) =>
      `<tr><td><code>${endpoint.method} ${escapeHtml(endpoint.path)}</code></td><td>${endpoint.auth ? "token" : "public"}</td><td>${escapeHtml(endpoint.what)}</td></tr>`,
  ).join("\n");

  return htmlPage(
    "Integrations",
    `<h1>Using ByteToll from your code</h1>
<p>Everything the dashboard does goes through a JSON HTTP API at <code>${app}</code>, and the proxy is a
standard HTTP proxy at <code>${escapeHtml(proxyUrl)}</code>. This install serves a Node.js SDK, a PHP SDK and an
MCP server for AI assistants; the commands below download them from it, so they work as written.</p>
<p>Authenticate with your API token: copy it from <a href="${app}/connect">Connect</a> → API &amp; SDK Access.
The SDKs send it as <code>Authorization: Bearer &lt;token&gt;</code>; answers are
<code>{"success": true, "data": …}</code>, or <code>{"success": false, "message": …}</code> with a 4xx or 5xx
status, which the SDKs raise as an error carrying the status and that message.</p>
<p><a href="#nodejs">Node.js</a> · <a href="#php">PHP</a> · <a href="#mcp">MCP</a></p>

<section id="nodejs">
<h2>Node.js</h2>
<p>Node.js 20.18 or later. Install the SDK (typed, no dependencies) from this server, and undici for its
proxy agent:</p>
${code("Node.js install commands", nodeInstallCommand(apiUrl))}
<p>The program prints your balance, your usage of the last 7 days and your exit IP address through the
proxy. The SDK also reads credentials, tests the connection, creates crypto top-up orders, and manages
deals, hostnames and routing rules; its README is in the package.</p>
${code("Node.js example", nodeExample(apiUrl))}
${referenceLink}
</section>

<section id="php">
<h2>PHP</h2>
<p>PHP 8.1 or later with the curl extension, nothing else. Download and unpack the SDK from this server
(with Composer, add <code>bytetoll-php</code> as a <code>path</code> repository instead of requiring
<code>autoload.php</code>):</p>
${code("PHP install commands", phpInstallCommand(apiUrl))}
${code("PHP example", phpExample(apiUrl))}
${referenceLink}
</section>

<section id="mcp">
<h2>MCP</h2>
<p>An MCP server (stdio) for AI assistants, run with <code>npx</code> straight from this server (Node.js
20.18 or later). Add it to your MCP client's configuration — Claude Desktop's
<code>claude_desktop_config.json</code> looks like this; other clients take the same command, arguments and
environment — with your API token:</p>
${code("MCP client configuration", mcpClientConfig(apiUrl))}
<p>Its tools read your balance, usage, transactions, deals, hostnames and routing rules, give proxy
credentials and a proxy URL, test the connection (a few KB of data), create USDC top-up orders (pay address,
amount and checkout link — a person pays them), withdraw group-buy deposits and change hostnames and
routing rules. Each tool's description says what it costs or changes.</p>
<p>The token acts as you: whoever holds it can read your proxy credentials and create orders. Regenerate it
on the Connect page to revoke it.</p>
<p>Agent frameworks that load an OpenAPI description as tools can use the API directly instead: give them
<a href="${app}${OPENAPI_PATH}"><code>${app}${OPENAPI_PATH}</code></a> (OpenAPI 3) and the token as a bearer
token.</p>
<p>The endpoints an agent needs most:</p>
<div class="table-scroll" tabindex="0" role="region" aria-label="Endpoints an agent needs most"><table>
<thead><tr><th>call</th><th>auth</th><th>what it does</th></tr></thead>
<tbody>
${endpointRows}
</tbody>
</table></div>
${referenceLink}
</section>

<hr>
<p><small>Operators: the Connect page's Node.js SDK, PHP SDK and MCP server links point here until you set
<code>NODE_SDK_URL</code>, <code>PHP_SDK_URL</code> and <code>MCP_SERVER_URL</code>.</small></p>`,
  );
}

/** GET /docs/integrations: the default destination of the Connect page's SDK and MCP links. */
export async function integrationGuideRoutes(app: App) {
  const { config } = app;
  const html = integrationGuideHtml({
    appUrl: config.APP_URL,
    gatewayHost: config.GATEWAY_HOST,
    httpPort: config.GATEWAY_HTTP_PORT,
  });
  app.get(INTEGRATION_GUIDE_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").send(html),
  );
}
