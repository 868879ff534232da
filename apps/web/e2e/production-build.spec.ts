import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const web = resolve(import.meta.dirname, "..");
const outDir = mkdtempSync(join(tmpdir(), "bytetoll-web-build-"));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** Only React's development build carries these (its dev-only stack frames and warnings). */
const DEVELOPMENT_MARKERS = ["react-stack-bottom-frame", "jsxDEV"];

describe("the dashboard build", () => {
  it("is a production build even when the environment says NODE_ENV=development", () => {
    // As `npm run build -w @bytetoll/web` (what `npm start` and the root build run), into a
    // folder of its own so the build the other specs serve is left alone.
    const build = spawnSync("npm", ["run", "build", "--", "--outDir", outDir, "--emptyOutDir"], {
      cwd: web,
      env: { ...process.env, NODE_ENV: "development" },
      encoding: "utf8",
    });
    expect(build.status, `${build.stdout}\n${build.stderr}`).toBe(0);

    const assets = join(outDir, "assets");
    const scripts = readdirSync(assets).filter((name) => name.endsWith(".js"));
    const texts = scripts.map((name) => readFileSync(join(assets, name), "utf8"));
    for (const marker of DEVELOPMENT_MARKERS)
      expect(texts.filter((text) => text.includes(marker)).length, marker).toBe(0);
    // The entry chunk: about 430 KB for production, over 600 KB for a development build.
    const entryName = /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(
      readFileSync(join(outDir, "index.html"), "utf8"),
    )?.[1];
    expect(entryName).toBeDefined();
    const entryKb = readFileSync(join(assets, entryName as string)).byteLength / 1024;
    expect(entryKb).toBeLessThan(500);
  }, 300_000);
});
