import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "./helpers/sign-in.ts";
import { createTestApp, type TestApp } from "./helpers/test-app.ts";
import { ADMIN_TOKEN } from "./modules/admin/helpers.ts";

// Every route the API documents, called with odd path parameters (past the router's 100-character
// limit, encoded NULs and slashes, traversal, unicode), junk bodies and junk queries, by a stranger,
// a customer and the operator: a client's bad input is a 4xx {success:false, message}, never a 5xx.

let t: TestApp;
let customer: string;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_TOKEN, RATE_LIMIT_PER_MINUTE: "1000000" });
  customer = (await signIn(t.app, "fuzz-customer@example.com")).token;
}, 60_000);
afterAll(() => t?.close());

const PARAMS = [
  "x".repeat(101),
  "7".repeat(400),
  "%00",
  "..%2F..%2Fetc%2Fpasswd",
  "%c0%ae",
  "%ff%fe",
  "'%20OR%201=1--",
  "-1",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "%E2%80%AEunicode%F0%9F%98%80",
];
const BODIES: (string | undefined)[] = [
  undefined,
  "not json",
  '{"a":',
  "[]",
  '{"ips":1,"amount":"NaN","email":[],"url":{"x":1},"id":null}',
  JSON.stringify({ amount: 1e308, gb: -1, name: "\u0000".repeat(10), limit_bytes: "9".repeat(40) }),
];
const QUERIES = ["", "?limit=-1&page=abc&from=%ff&to=9999-99-99", "?days[]=1&days[]=2&period=%00"];

interface Call {
  method: string;
  url: string;
  body: string | undefined;
  auth: Record<string, string>;
}

/** The calls: each documented path with each odd parameter (all placeholders at once), each body
 * and query on the path with plain parameters, as each kind of caller. */
async function calls(): Promise<Call[]> {
  const docs = (await t.app.inject({ method: "GET", url: "/docs/json" })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  const callers = [{}, bearer(customer), bearer(ADMIN_TOKEN)];
  const out: Call[] = [];
  for (const [path, operations] of Object.entries(docs.paths)) {
    for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
      if (method === "HEAD" || method === "OPTIONS") continue;
      const withParam = (value: string) => path.replace(/\{[^}]+\}/g, value);
      const urls = path.includes("{") ? PARAMS.map(withParam) : [path];
      for (const auth of callers) {
        for (const url of urls) out.push({ method, url, body: BODIES[4], auth });
        for (const body of BODIES)
          for (const query of QUERIES) {
            out.push({ method, url: `${withParam("x".repeat(101))}${query}`, body, auth });
          }
      }
    }
  }
  return out;
}

describe("the API under fuzzed input", () => {
  it("answers every documented route's odd parameters, bodies and queries with no 5xx", async () => {
    const all = await calls();
    expect(all.length).toBeGreaterThan(1_000);
    const failures: string[] = [];
    for (const call of all) {
      const response = await t.app.inject({
        method: call.method as "GET",
        url: call.url,
        headers: { ...call.auth, ...(call.body === undefined ? {} : { "content-type": "application/json" }) },
        ...(call.body === undefined ? {} : { payload: call.body }),
      });
      if (response.statusCode >= 500) failures.push(`${call.method} ${call.url} → ${response.statusCode}`);
      else if (response.statusCode >= 400 && response.headers["content-type"]?.includes("json")) {
        const body = response.json() as { success?: unknown; message?: unknown };
        if (body.success !== false || typeof body.message !== "string")
          failures.push(`${call.method} ${call.url} → ${response.statusCode} ${response.body.slice(0, 80)}`);
      }
    }
    expect([...new Set(failures)].slice(0, 40)).toEqual([]);
  }, 600_000);
});
