import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const modules = fileURLToPath(new URL("../src/modules/", import.meta.url));

/** Every `from "…"` specifier in a module folder's source files, with the file it stands in. */
function importsOf(folder: string): Array<{ file: string; specifier: string }> {
  const dir = path.join(modules, folder);
  return readdirSync(dir)
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) =>
      [...readFileSync(path.join(dir, name), "utf8").matchAll(/from\s+"([^"]+)"/g)].map((match) => ({
        file: `${folder}/${name}`,
        specifier: match[1] as string,
      })),
    );
}

describe("money flows one way between orders and payments", () => {
  it("orders imports nothing of payments (checkout opens payments through lib/payment-provider.ts)", () => {
    const reaching = importsOf("orders").filter(({ specifier }) => specifier.includes("/payments/"));
    expect(reaching).toEqual([]);
  });

  it("payments reaches orders only through orders/index.ts", () => {
    const reaching = importsOf("payments").filter(
      ({ specifier }) => specifier.includes("/orders/") && specifier !== "../orders/index.ts",
    );
    expect(reaching).toEqual([]);
  });
});

describe("a server module is entered through its index.ts", () => {
  it("no module imports another module's files other than its index.ts (biome.json enforces the same)", () => {
    const folders = readdirSync(modules, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const reaching = folders
      .flatMap((folder) => importsOf(folder))
      .filter(
        ({ specifier }) => /^\.\.\/[^./][^/]*\/[^/]+$/.test(specifier) && !specifier.endsWith("/index.ts"),
      );
    expect(reaching).toEqual([]);
  });
});
