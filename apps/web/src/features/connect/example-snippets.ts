/** The site every example fetches: it answers with the address the request left the proxy from. */
export const EXAMPLE_TARGET_URL = "https://ipinfo.io/json";

export type ExampleLanguage = "curl" | "node" | "python" | "socks5";

export const EXAMPLE_TABS: Array<{ id: ExampleLanguage; label: string }> = [
  { id: "curl", label: "cURL" },
  { id: "node", label: "Node.js" },
  { id: "python", label: "Python" },
  { id: "socks5", label: "SOCKS5" },
];

/** The tabs for this gateway: SOCKS5 only where the operator left it on. */
export function exampleTabs(input: ExampleInput | null): typeof EXAMPLE_TABS {
  return EXAMPLE_TABS.filter((tab) => tab.id !== "socks5" || input?.socksPort != null);
}

export interface ExampleInput {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The SOCKS5 port; null when the operator turned SOCKS5 off. */
  socksPort: number | null;
}

/** Single-quoted for POSIX shells; passwords are URL-safe, but quote anyway. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** A host for a URL: IPv6 literals need brackets. */
const urlHost = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host);

/** Code that runs as shown with the current credentials (the e2e test runs cURL and Node.js). */
export function exampleCode(language: ExampleLanguage, input: ExampleInput): string {
  const proxy = `http://${urlHost(input.host)}:${input.port}`;
  const credentials = `${input.username}:${input.password}`;
  switch (language) {
    case "curl":
      return `curl --proxy ${shellQuote(proxy)} --proxy-user ${shellQuote(credentials)} ${shellQuote(EXAMPLE_TARGET_URL)}`;
    case "node":
      return [
        "// Save as example.mjs, then: npm install undici && node example.mjs",
        'import { fetch, ProxyAgent } from "undici";',
        "",
        "const proxy = new ProxyAgent({",
        `  uri: ${JSON.stringify(proxy)},`,
        `  token: "Basic " + Buffer.from(${JSON.stringify(credentials)}).toString("base64"),`,
        "});",
        `const response = await fetch(${JSON.stringify(EXAMPLE_TARGET_URL)}, { dispatcher: proxy });`,
        "console.log(await response.text());",
      ].join("\n");
    case "python": {
      const withCredentials = `http://${credentials}@${urlHost(input.host)}:${input.port}`;
      return [
        "# pip install requests",
        "import requests",
        "",
        `proxy = ${JSON.stringify(withCredentials)}`,
        `response = requests.get(${JSON.stringify(EXAMPLE_TARGET_URL)}, proxies={"http": proxy, "https": proxy})`,
        "print(response.text)",
      ].join("\n");
    }
    case "socks5": {
      const socks = `${urlHost(input.host)}:${input.socksPort ?? input.port}`;
      const socksUrl = `socks5h://${credentials}@${socks}`;
      return [
        "# cURL: the proxy resolves the host name (--socks5-hostname, or socks5h:// in a proxy URL)",
        `curl --socks5-hostname ${shellQuote(socks)} --proxy-user ${shellQuote(credentials)} ${shellQuote(EXAMPLE_TARGET_URL)}`,
        "",
        '# Python: pip install "requests[socks]"',
        "import requests",
        `proxy = ${JSON.stringify(socksUrl)}`,
        `print(requests.get(${JSON.stringify(EXAMPLE_TARGET_URL)}, proxies={"http": proxy, "https": proxy}).text)`,
      ].join("\n");
    }
  }
}

/** cURL from an authorized address: no credentials at all (SOCKS5 too where it is on). */
export function allowlistedExampleCode(proxy: {
  host: string;
  port: number;
  socksPort: number | null;
}): string {
  const http = `curl --proxy ${shellQuote(`http://${urlHost(proxy.host)}:${proxy.port}`)} ${shellQuote(EXAMPLE_TARGET_URL)}`;
  if (proxy.socksPort === null) return http;
  const socks = `socks5h://${urlHost(proxy.host)}:${proxy.socksPort}`;
  return `${http}\ncurl --proxy ${shellQuote(socks)} ${shellQuote(EXAMPLE_TARGET_URL)}`;
}
