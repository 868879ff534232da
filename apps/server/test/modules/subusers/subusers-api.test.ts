import { hashSecret } from "@bytetoll/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, signIn } from "../../helpers/sign-in.ts";
import { createTestApp, type TestApp } from "../../helpers/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const call = (
  token: string,
  method: "GET" | "POST" | "PATCH" | "DELETE",
  url: string,
  payload?: Record<string, unknown>,
) => t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });

const rowsOf = (userId: string) =>
  t.database.query<{ label: string; limit_bytes: string | null; enabled: boolean; password_hash: string }>(
    "SELECT label, limit_bytes, enabled, password_hash FROM subusers WHERE user_id = $1 ORDER BY created_at",
    [userId],
  );

describe("sub-users through the HTTP API", () => {
  it("creates a sub-user with its own credentials, lists, reads, changes and deletes it", async () => {
    const owner = await signIn(t.app, "subuser-owner@example.com");
    const main = (await call(owner.token, "GET", "/credentials/latest")).json().data;

    const created = await call(owner.token, "POST", "/subusers", {
      label: "scraper 1",
      limit_gb: 2.5,
      limit_period: "week",
    });
    expect(created.statusCode).toBe(200);
    const subuser = created.json().data;
    expect(subuser).toMatchObject({
      label: "scraper 1",
      limit_gb: 2.5,
      limit_bytes: 2_500_000_000,
      limit_period: "week",
      used_gb: 0,
      enabled: true,
    });
    expect(subuser.username).toMatch(/^su[a-z0-9]{10}$/);
    expect(subuser.username).not.toBe(main.username);
    expect(subuser.password).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    const [stored] = await rowsOf(owner.id);
    expect(stored?.password_hash).toBe(hashSecret(subuser.password));

    const noLimit = (await call(owner.token, "POST", "/subusers", { label: "free" })).json().data;
    expect(noLimit).toMatchObject({ limit_gb: null, limit_period: "total" });

    const list = (await call(owner.token, "GET", "/subusers")).json().data;
    expect(list.map((s: { label: string }) => s.label)).toEqual(["scraper 1", "free"]);
    expect((await call(owner.token, "GET", `/subusers/${subuser.id}`)).json().data).toEqual(subuser);

    const patched = await call(owner.token, "PATCH", `/subusers/${subuser.id}`, {
      enabled: false,
      limit_gb: null,
      label: "renamed",
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().data).toMatchObject({ enabled: false, limit_gb: null, label: "renamed" });

    const renewed = (await call(owner.token, "POST", `/subusers/${subuser.id}/password`)).json().data;
    expect(renewed.username).toBe(subuser.username);
    expect(renewed.password).not.toBe(subuser.password);

    expect((await call(owner.token, "DELETE", `/subusers/${subuser.id}`)).json()).toEqual({ success: true });
    expect((await call(owner.token, "GET", `/subusers/${subuser.id}`)).statusCode).toBe(404);
    expect((await rowsOf(owner.id)).map((row) => row.label)).toEqual(["free"]);
  });

  it("answers 404 for another customer's sub-user and changes nothing", async () => {
    const alice = await signIn(t.app, "subuser-alice@example.com");
    const mallory = await signIn(t.app, "subuser-mallory@example.com");
    const own = (await call(alice.token, "POST", "/subusers", { label: "mine", limit_gb: 1 })).json().data;
    const before = await rowsOf(alice.id);
    for (const [method, url, payload] of [
      ["GET", `/subusers/${own.id}`, undefined],
      ["PATCH", `/subusers/${own.id}`, { enabled: false, limit_gb: 100 }],
      ["POST", `/subusers/${own.id}/password`, undefined],
      ["DELETE", `/subusers/${own.id}`, undefined],
    ] as const) {
      const response = await call(mallory.token, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ success: false, message: "Sub-user not found" });
    }
    expect((await call(mallory.token, "GET", "/subusers")).json().data).toEqual([]);
    expect(await rowsOf(alice.id)).toEqual(before);
    expect((await call(alice.token, "GET", `/subusers/${own.id}`)).json().data.password).toBe(own.password);
  });

  it("takes a limit as small as 1 MB, and says how small a limit may be", async () => {
    const owner = await signIn(t.app, "subuser-one-megabyte@example.com");
    const created = await call(owner.token, "POST", "/subusers", { label: "tiny", limit_gb: 0.001 });
    expect(created.statusCode).toBe(200);
    expect(created.json().data).toMatchObject({ limit_gb: 0.001, limit_bytes: 1_000_000 });
    const tooSmall = await call(owner.token, "PATCH", `/subusers/${created.json().data.id}`, {
      limit_gb: 0.0005,
    });
    expect(tooSmall.statusCode).toBe(400);
    expect(tooSmall.json().message).toBe("limit_gb must be at least 0.001 (1 MB), or null for no limit");
  });

  it("refuses bad input with 400 naming the field, and a taken label with 409, changing nothing", async () => {
    const owner = await signIn(t.app, "subuser-validation@example.com");
    const first = (await call(owner.token, "POST", "/subusers", { label: "one" })).json().data;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "label"],
      [{ label: "" }, "label"],
      [{ label: "x".repeat(65) }, "label"],
      [{ label: "tab\there" }, "label"],
      [{ label: "ok", limit_gb: 0 }, "limit_gb"],
      [{ label: "ok", limit_gb: 0.0009 }, "limit_gb"],
      [{ label: "ok", limit_gb: -1 }, "limit_gb"],
      [{ label: "ok", limit_gb: "5" }, "limit_gb"],
      [{ label: "ok", limit_period: "year" }, "limit_period"],
      [{ label: "ok", owner: "someone" }, "owner"],
    ];
    for (const [payload, field] of cases) {
      const response = await call(owner.token, "POST", "/subusers", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().success).toBe(false);
      expect(response.json().message, JSON.stringify(payload)).toContain(field);
    }
    const taken = await call(owner.token, "POST", "/subusers", { label: "one" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain("label");

    const second = (await call(owner.token, "POST", "/subusers", { label: "two" })).json().data;
    const renameTaken = await call(owner.token, "PATCH", `/subusers/${second.id}`, {
      label: "one",
      limit_gb: 3,
    });
    expect(renameTaken.statusCode).toBe(409);
    for (const [payload, field] of [
      [{}, "Nothing to change"],
      [{ enabled: "no" }, "enabled"],
      [{ limit_period: "hour" }, "limit_period"],
    ] as const) {
      const response = await call(owner.token, "PATCH", `/subusers/${second.id}`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect((await call(owner.token, "GET", "/subusers/not-a-uuid")).statusCode).toBe(400);
    expect((await rowsOf(owner.id)).map((row) => [row.label, row.limit_bytes])).toEqual([
      ["one", null],
      ["two", null],
    ]);
    expect(first.label).toBe("one");
  });

  it("holds at most 1,000 sub-users per account, also when creations race", async () => {
    const owner = await signIn(t.app, "subuser-many@example.com");
    await t.database.query(
      `INSERT INTO subusers (user_id, label, username, password_hash, password_enc)
       SELECT $1, 'seed ' || g, 'suseed' || g || $2::text, 'x', 'x' FROM generate_series(1, 997) g`,
      [owner.id, owner.id.slice(0, 8)],
    );
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(owner.token, "POST", "/subusers", { label: `race ${i}` })),
    );
    expect(replies.filter((reply) => reply.statusCode === 200)).toHaveLength(3);
    const refused = replies.filter((reply) => reply.statusCode === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]?.json().message).toContain("1000");
    const [count] = await t.database.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM subusers WHERE user_id = $1",
      [owner.id],
    );
    expect(count?.n).toBe(1000);
  });

  it("never gives a sub-user a name an account's credentials hold, nor the other way round", async () => {
    const owner = await signIn(t.app, "subuser-namespace@example.com");
    const main = (await call(owner.token, "GET", "/credentials/latest")).json().data;
    const sub = (await call(owner.token, "POST", "/subusers", { label: "n" })).json().data;
    await expect(
      t.database.query("UPDATE subusers SET username = $1 WHERE id = $2", [main.username, sub.id]),
    ).rejects.toThrow(/taken/);
    await expect(
      t.database.query(
        "INSERT INTO proxy_credentials (username, password_hash, password_enc) VALUES ($1, 'x', 'x')",
        [sub.username],
      ),
    ).rejects.toThrow(/taken/);
  });

  it("lists the sub-user calls in the OpenAPI document", async () => {
    const spec = (await t.app.inject({ method: "GET", url: "/docs/json" })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(["/subusers", "/subusers/{id}", "/subusers/{id}/password"]),
    );
    expect(Object.keys(spec.paths["/subusers/{id}"])).toEqual(
      expect.arrayContaining(["get", "patch", "delete"]),
    );
  });
});
