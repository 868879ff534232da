import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

const WEB_FAVICON = fileURLToPath(new URL("../../../../web/public/favicon.svg", import.meta.url));

let distDir: string;
let t: TestApp;

beforeAll(async () => {
  // A build as Vite leaves it: the SPA's public files are copied beside index.html.
  distDir = mkdtempSync(path.join(tmpdir(), "bytetoll-icon-dist-"));
  writeFileSync(path.join(distDir, "index.html"), '<!doctype html><link rel="icon" href="/favicon.svg">');
  copyFileSync(WEB_FAVICON, path.join(distDir, "favicon.svg"));
  t = await createTestApp({ WEB_DIST_DIR: distDir });
});
afterAll(async () => {
  await t?.close();
  rmSync(distDir, { recursive: true, force: true });
});

describe("the pages the server renders itself", () => {
  it.each(["/terms", "/privacy", "/docs/integrations"])(
    "%s carries the SPA's icon, which the server serves",
    async (url) => {
      const page = await t.app.inject({ method: "GET", url });
      expect(page.statusCode).toBe(200);
      const href = page.body.match(/<link rel="icon" type="image\/svg\+xml" href="([^"]+)">/)?.[1];
      expect(href).toBe("/favicon.svg");
      const icon = await t.app.inject({ method: "GET", url: href! });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers["content-type"]).toMatch(/^image\/svg\+xml/);
      expect(icon.body).toContain("<title>ByteToll</title>");
    },
  );
});
