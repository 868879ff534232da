import { describe, expect, it } from "vitest";
import { createQueryClient, retryDelay } from "./query-client.ts";

describe("query client defaults (docs/product.md#formats-and-limits)", () => {
  it("keeps unused data 5 minutes and retries 3 times", () => {
    const defaults = createQueryClient().getDefaultOptions().queries;
    expect(defaults?.gcTime).toBe(300_000);
    expect(defaults?.retry).toBe(3);
  });
  it("backs off exponentially up to 30 s", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
