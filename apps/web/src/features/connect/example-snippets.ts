/** The site every example fetches: it answers with the address the request left the proxy from. */
export const EXAMPLE_TARGET_URL = "https://ipinfo.io/json";

export type ExampleLanguage = "curl" | "node" | "python";

export const EXAMPLE_TABS: Array<{ id: ExampleLanguage; label: string }> = [
  { id: "curl", label: "cURL" },
  { id: "node", label: "Node.js" },
  { id: "python", label: "Python" },
];

export interface ExampleInput {
  host: string;
  port: number;
  username: string;
  password: string;
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
  }
}
