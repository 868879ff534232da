import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { type RunningInstall, startRunningInstall } from "../../server/test/helpers/running-install.ts";
import { createByteTollMcpServer } from "../src/server.ts";

/** A tool's answer: its text, whether it is an error, and the text parsed as JSON. */
function answer(result: CallToolResult) {
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
  return { isError: result.isError === true, text, json: () => JSON.parse(text) };
}

export interface McpSession {
  install: RunningInstall;
  /** Calls a tool and reads its text answer. */
  call(name: string, args?: Record<string, unknown>): Promise<ReturnType<typeof answer>>;
  close(): Promise<void>;
}

/** A running install and an MCP client connected in memory to a server acting for `email`. */
export async function startMcpSession(email: string): Promise<McpSession> {
  const install = await startRunningInstall();
  const apiToken = await install.apiToken(email);
  const server = createByteTollMcpServer({ baseUrl: install.url, apiToken });
  const client = new Client({ name: "test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return {
    install,
    async call(name, args = {}) {
      return answer((await client.callTool({ name, arguments: args })) as CallToolResult);
    },
    async close() {
      await client.close();
      await install.close();
    },
  };
}
