import { launchBrowser } from "../../apps/web/e2e/fixtures/browser.ts";
import { startServer } from "../../apps/web/e2e/fixtures/server.ts";

/**
 * What a first visit to /login costs a new customer: the bytes Chromium transfers by type (as
 * sent on the wire, compressed or not) and the time until the e-mail field can be typed into.
 * Three cold visits (fresh browser context each: nothing cached), medians. The reference is the
 * same page with compression refused (Accept-Encoding: identity), measured in the same run.
 */

const ROUNDS = 3;

interface Visit {
  bytes: Record<string, number>;
  total: number;
  usableMs: number;
  chartCode: boolean;
}

function kindOf(url: string, contentType: string): string {
  if (contentType.includes("javascript") || url.endsWith(".js")) return "script";
  if (contentType.includes("css")) return "stylesheet";
  if (contentType.includes("html")) return "document";
  if (contentType.includes("font") || /\.(woff2?|ttf)$/.test(url)) return "font";
  if (contentType.includes("image")) return "image";
  return "other";
}

async function visit(baseUrl: string, identity: boolean): Promise<Visit> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    if (identity) {
      await cdp.send("Network.setExtraHTTPHeaders", { headers: { "Accept-Encoding": "identity" } });
    }
    const responses = new Map<string, { url: string; type: string }>();
    const bytes: Record<string, number> = {};
    let chartCode = false;
    cdp.on("Network.responseReceived", (event) => {
      const type = String(event.response.headers["content-type"] ?? event.response.mimeType ?? "");
      responses.set(event.requestId, { url: event.response.url, type });
    });
    cdp.on("Network.loadingFinished", (event) => {
      const response = responses.get(event.requestId);
      if (!response) return;
      const kind = kindOf(response.url, response.type);
      bytes[kind] = (bytes[kind] ?? 0) + event.encodedDataLength;
      if (/chart|recharts|legend-props/i.test(response.url)) chartCode = true;
      if (process.env.BENCH_WEB_FILES) console.log(`  ${event.encodedDataLength}\t${response.url}`);
    });
    const started = performance.now();
    await page.goto(`${baseUrl}/login`);
    await page.getByRole("textbox", { name: /email/i }).fill("first-visit@example.com");
    const usableMs = performance.now() - started;
    await page.waitForLoadState("networkidle");
    const total = Object.values(bytes).reduce((sum, n) => sum + n, 0);
    return { bytes, total, usableMs, chartCode };
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

async function main() {
  const server = await startServer({ LOG_LEVEL: "silent" });
  try {
    const rows: Array<[string, Visit[]]> = [];
    for (const [label, identity] of [
      ["compressed (as browsers ask)", false],
      ["reference: compression refused", true],
    ] as const) {
      const visits: Visit[] = [];
      for (let i = 0; i < ROUNDS; i++) visits.push(await visit(server.url, identity));
      rows.push([label, visits]);
    }
    console.log(`First visit to /login, ${ROUNDS} cold visits each, medians (bytes as transferred):`);
    console.log(
      ["subject".padEnd(32), "script", "stylesheet", "document", "other", "total", "usable ms", "charts"]
        .map((cell) => cell.padStart(10))
        .join(" "),
    );
    for (const [label, visits] of rows) {
      const of = (kind: string) => kb(median(visits.map((v) => v.bytes[kind] ?? 0)));
      console.log(
        [
          label.padEnd(32),
          of("script"),
          of("stylesheet"),
          of("document"),
          kb(median(visits.map((v) => (v.bytes.other ?? 0) + (v.bytes.font ?? 0) + (v.bytes.image ?? 0)))),
          kb(median(visits.map((v) => v.total))),
          median(visits.map((v) => v.usableMs)).toFixed(0),
          visits.some((v) => v.chartCode) ? "yes" : "no",
        ]
          .map((cell) => cell.padStart(10))
          .join(" "),
      );
    }
    console.log("Goal: ≤ 120 KB of script and ≤ 170 KB in all, no chart code.");
  } finally {
    await server.stop();
  }
}

await main();
