/** What the examples fetch through the proxy, as on the Connect page: it answers with the exit IP. */
export const EXAMPLE_TARGET_URL = "https://ipinfo.io/json";

/** A host for a URL: IPv6 literals need brackets. */
export const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

/** A PHP single-quoted literal: nothing inside is interpolated. */
const phpString = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

/** The downloads this install serves (modules/downloads), named in the commands below. */
export const downloadUrl = (apiUrl: string, file: string) =>
  `${apiUrl.replace(/\/+$/, "")}/downloads/${file}`;

/** Installs the SDK from this install (and undici, for its proxy agent). */
export const nodeInstallCommand = (apiUrl: string) =>
  `npm install ${downloadUrl(apiUrl, "bytetoll-sdk.tgz")} undici`;

/**
 * Node.js 20.18+: the SDK with the token, and the proxy URL it gives through undici's ProxyAgent.
 * A test installs the served SDK and runs this program against the server.
 */
export function nodeExample(apiUrl: string): string {
  return [
    "// Save as bytetoll.mjs and run: BYTETOLL_API_TOKEN=<your API token> node bytetoll.mjs",
    'import { createClient } from "@bytetoll/sdk";',
    'import { fetch, ProxyAgent } from "undici";',
    "",
    `const bytetoll = createClient({ baseUrl: ${JSON.stringify(apiUrl)}, apiToken: process.env.BYTETOLL_API_TOKEN });`,
    "",
    "const { balance_gb } = await bytetoll.balance();",
    'console.log("Balance:", balance_gb, "GB");',
    "",
    "// The last 7 UTC days, oldest first, one row per day.",
    'for (const day of await bytetoll.usage({ group_by: "day", days: 7 })) {',
    '  console.log(day.date, day.mobile_gb, "GB mobile,", day.dc_gb, "GB datacenter");',
    "}",
    "",
    "// http://user:pass@host:port with your proxy credentials; { sticky: true, smart: true } for options.",
    "const proxyUrl = await bytetoll.proxyUrl();",
    `const response = await fetch(${JSON.stringify(EXAMPLE_TARGET_URL)}, { dispatcher: new ProxyAgent(proxyUrl) });`,
    "console.log(await response.text());",
  ].join("\n");
}

/** Downloads and unpacks the PHP SDK from this install. */
export const phpInstallCommand = (apiUrl: string) =>
  `curl -fsSLO ${downloadUrl(apiUrl, "bytetoll-php.zip")} && unzip -q bytetoll-php.zip`;

/** Any MCP client's configuration (Claude Desktop's format): `npx` of the served MCP tarball. */
export function mcpClientConfig(apiUrl: string): string {
  const server = {
    command: "npx",
    args: ["-y", downloadUrl(apiUrl, "bytetoll-mcp.tgz")],
    env: { BYTETOLL_URL: apiUrl, BYTETOLL_API_TOKEN: MCP_TOKEN_PLACEHOLDER },
  };
  return JSON.stringify({ mcpServers: { bytetoll: server } }, null, 2);
}
export const MCP_TOKEN_PLACEHOLDER = "<your API token>";

/** PHP 8.1+ with the curl extension: the same calls through the PHP SDK. */
export function phpExample(apiUrl: string): string {
  return [
    "<?php",
    "// Save as bytetoll.php next to bytetoll-php/ and run: BYTETOLL_API_TOKEN=<your API token> php bytetoll.php",
    "require __DIR__ . '/bytetoll-php/autoload.php';",
    "",
    `$bytetoll = new ByteToll\\Client(${phpString(apiUrl)}, (string) getenv('BYTETOLL_API_TOKEN'));`,
    "",
    "echo 'Balance: ', $bytetoll->balance()['balance_gb'], \" GB\\n\";",
    "",
    "// The last 7 UTC days, oldest first, one row per day.",
    "foreach ($bytetoll->usage('day', 7) as $day) {",
    "    echo $day['date'], ' ', $day['mobile_gb'], ' GB mobile, ', $day['dc_gb'], \" GB datacenter\\n\";",
    "}",
    "",
    "// http://user:pass@host:port with your proxy credentials; proxyUrl(sticky: true, smart: true) for options.",
    `$curl = curl_init(${phpString(EXAMPLE_TARGET_URL)});`,
    "curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_PROXY => $bytetoll->proxyUrl()]);",
    'echo curl_exec($curl), "\\n";',
  ].join("\n");
}
