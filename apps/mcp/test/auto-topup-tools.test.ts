import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpSession, startMcpSession } from "./support.ts";

let session: McpSession;
beforeAll(async () => {
  session = await startMcpSession("mcp-auto-topup@example.com");
});
afterAll(async () => {
  await session?.close();
});
const call = (name: string, args: Record<string, unknown> = {}) => session.call(name, args);

const on = { enabled: true, threshold_gb: 1, amount_usd: 30, monthly_cap_usd: 60 };

describe("the auto top-up tools", () => {
  it("read it, explain the missing card, give the card page, turn it on and remove the card", async () => {
    expect((await call("get_auto_topup")).json()).toMatchObject({ enabled: false, card: null });
    const refused = await call("set_auto_topup", on);
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe("ByteToll answered 409: Add a card first");
    const { redirect_url } = (await call("add_auto_topup_card")).json();
    // The customer opens it; the sandbox's card page saves a test card.
    expect((await fetch(`${redirect_url}?card=pays`, { method: "POST", redirect: "manual" })).status).toBe(
      303,
    );
    expect((await call("set_auto_topup", on)).json()).toMatchObject({ ...on, card: { last4: "4242" } });
    expect((await call("remove_auto_topup_card")).json()).toMatchObject({ enabled: false, card: null });
  });
});
