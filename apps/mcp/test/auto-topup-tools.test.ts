import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningInstall, startRunningInstall } from "../../server/test/helpers/running-install.ts";
import { createByteTollMcpServer } from "../src/server.ts";

let install: RunningInstall;
let client: Client;

beforeAll(async () => {
  install = await startRunningInstall();
  const apiToken = await install.apiToken("mcp-auto-topup@example.com");
  const server = createByteTollMcpServer({ baseUrl: install.url, apiToken });
  client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
});
afterAll(async () => {
  await client?.close();
  await install?.close();
});

async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { isError: result.isError === true, text, json: () => JSON.parse(text) };
}

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
