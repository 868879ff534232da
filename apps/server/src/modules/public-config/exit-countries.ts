import type { App } from "../../types.ts";

/**
 * The countries customers can ask for: the environment's exits' and those of the console's
 * enabled exits (docs/product.md#console-exits), read on each call (one small query per page
 * load), so a change shows at once on every instance. While the database cannot be read, the last
 * answer (or the environment's alone) is given.
 */
export function consoleExitCountries(app: App, environment: readonly string[]): () => Promise<string[]> {
  let last: string[] = [...environment];
  return async () => {
    try {
      const rows = await app.database.query<{ code: string }>(
        "SELECT DISTINCT unnest(countries) AS code FROM upstreams WHERE enabled",
      );
      last = [...new Set([...environment, ...rows.map((row) => row.code)])].sort();
    } catch (error) {
      app.log.warn({ err: error }, "console exits' countries not read");
    }
    return last;
  };
}
