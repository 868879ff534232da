import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpSession, startMcpSession } from "./support.ts";

let session: McpSession;
beforeAll(async () => {
  session = await startMcpSession("mcp-subusers@example.com");
});
afterAll(async () => {
  await session?.close();
});
const call = (name: string, args: Record<string, unknown> = {}) => session.call(name, args);

describe("the sub-user tools", () => {
  it("create, list, change, renew and delete a sub-user, and read usage by sub-user", async () => {
    const created = (
      await call("create_subuser", { label: "agent job", limit_gb: 1.5, limit_period: "week" })
    ).json();
    expect(created).toMatchObject({ label: "agent job", limit_gb: 1.5, limit_period: "week", enabled: true });
    expect((await call("list_subusers")).json()).toEqual([created]);
    const changed = (await call("update_subuser", { id: created.id, enabled: false, limit_gb: null })).json();
    expect(changed).toMatchObject({ enabled: false, limit_gb: null });
    const renewed = (await call("regenerate_subuser_password", { id: created.id })).json();
    expect(renewed.password).not.toBe(created.password);
    const usage = (await call("get_usage", { group_by: "subuser", days: "7" })).json();
    expect(usage.map((row: { value: string }) => row.value)).toEqual(["Main credentials", "agent job"]);
    expect((await call("delete_subuser", { id: created.id })).json()).toEqual({ deleted: created.id });
    expect((await call("list_subusers")).json()).toEqual([]);
  });

  it("explains a refused change instead of failing", async () => {
    const bad = await call("create_subuser", { label: "x", limit_gb: 0 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("limit_gb");
    const missing = await call("delete_subuser", { id: "00000000-0000-4000-8000-000000000000" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("404");
  });
});
