/** What the examples fetch through the proxy, as on the Connect page: it answers with the exit IP. */
export const EXAMPLE_TARGET_URL = "https://ipinfo.io/json";

export interface ExampleInput {
  /** The API base: APP_URL. */
  apiUrl: string;
  /** The plain HTTP proxy port of the gateway: http://GATEWAY_HOST:GATEWAY_HTTP_PORT. */
  proxyUrl: string;
}

/** A host for a URL: IPv6 literals need brackets. */
export const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

/** A PHP single-quoted literal: nothing inside is interpolated. */
const phpString = (value: string) => `'${value.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;

/**
 * Node.js 20+: the API with fetch and the token as a bearer token, the proxy with undici's
 * ProxyAgent (as the Connect page's example). A test runs this program against the server.
 */
export function nodeExample({ apiUrl, proxyUrl }: ExampleInput): string {
  return [
    "// Save as bytetoll.mjs, then: npm install undici",
    "// and run: BYTETOLL_API_TOKEN=<your API token> node bytetoll.mjs",
    'import { fetch, ProxyAgent } from "undici";',
    "",
    `const API = ${JSON.stringify(apiUrl)};`,
    "const token = process.env.BYTETOLL_API_TOKEN;",
    'if (!token) throw new Error("Set BYTETOLL_API_TOKEN to the API token of the Connect page");',
    "",
    "/** GETs an API path with the token and returns the answer's data. */",
    "async function api(path) {",
    '  const response = await fetch(API + path, { headers: { Authorization: "Bearer " + token } });',
    "  const body = await response.json();",
    '  if (!body.success) throw new Error(path + ": " + response.status + " " + body.message);',
    "  return body.data;",
    "}",
    "",
    'const status = await api("/account/status");',
    'console.log("Balance:", status.balance_gb, "GB");',
    "",
    "// The last 7 UTC days, oldest first, one row per day.",
    'for (const day of await api("/proxies/usage?group_by=day&days=7")) {',
    '  console.log(day.date, day.mobile_gb, "GB mobile,", day.dc_gb, "GB datacenter");',
    "}",
    "",
    "// The proxy: your proxy username and password come from the API too.",
    'const { username, password } = await api("/credentials/latest");',
    "const proxy = new ProxyAgent({",
    `  uri: ${JSON.stringify(proxyUrl)},`,
    '  token: "Basic " + Buffer.from(username + ":" + password).toString("base64"),',
    "});",
    `const response = await fetch(${JSON.stringify(EXAMPLE_TARGET_URL)}, { dispatcher: proxy });`,
    "console.log(await response.text());",
  ].join("\n");
}

/** PHP 8 with the curl extension: the same calls, and the same request through the proxy. */
export function phpExample({ apiUrl, proxyUrl }: ExampleInput): string {
  return [
    "<?php",
    "// Save as bytetoll.php and run: BYTETOLL_API_TOKEN=<your API token> php bytetoll.php",
    "// Needs PHP 8 with the curl extension (php-curl).",
    `const API = ${phpString(apiUrl)};`,
    "",
    "/** GETs an API path with the token and returns the answer's data. */",
    "function api(string $path): array",
    "{",
    "    $curl = curl_init(API . $path);",
    "    curl_setopt_array($curl, [",
    "        CURLOPT_RETURNTRANSFER => true,",
    "        CURLOPT_HTTPHEADER => ['Authorization: Bearer ' . getenv('BYTETOLL_API_TOKEN')],",
    "    ]);",
    "    $text = curl_exec($curl);",
    "    if ($text === false) {",
    "        throw new RuntimeException($path . ': ' . curl_error($curl));",
    "    }",
    "    $body = json_decode($text, true);",
    "    if (empty($body['success'])) {",
    "        $status = curl_getinfo($curl, CURLINFO_RESPONSE_CODE);",
    "        throw new RuntimeException($path . ': ' . $status . ' ' . ($body['message'] ?? $text));",
    "    }",
    "    return $body['data'];",
    "}",
    "",
    "$status = api('/account/status');",
    "echo 'Balance: ', $status['balance_gb'], \" GB\\n\";",
    "",
    "// The last 7 UTC days, oldest first, one row per day.",
    "foreach (api('/proxies/usage?group_by=day&days=7') as $day) {",
    "    echo $day['date'], ' ', $day['mobile_gb'], ' GB mobile, ', $day['dc_gb'], \" GB datacenter\\n\";",
    "}",
    "",
    "// The proxy: your proxy username and password come from the API too.",
    "$credentials = api('/credentials/latest');",
    `$curl = curl_init(${phpString(EXAMPLE_TARGET_URL)});`,
    "curl_setopt_array($curl, [",
    "    CURLOPT_RETURNTRANSFER => true,",
    `    CURLOPT_PROXY => ${phpString(proxyUrl)},`,
    "    CURLOPT_PROXYUSERPWD => $credentials['username'] . ':' . $credentials['password'],",
    "]);",
    'echo curl_exec($curl), "\\n";',
  ].join("\n");
}
