import { createClient } from "@bytetoll/sdk";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerTools } from "./tools.ts";

export const SERVER_NAME = "bytetoll";
export const SERVER_VERSION = "0.1.0";

export interface ByteTollMcpOptions {
  /** The install's address (BYTETOLL_URL). */
  baseUrl: string;
  /** The API token of the Connect page (BYTETOLL_API_TOKEN). */
  apiToken: string;
  retryBaseMs?: number;
  fetch?: typeof fetch;
}

/** An MCP server whose tools call this ByteToll install with the given token. */
export function createByteTollMcpServer(options: ByteTollMcpOptions): McpServer {
  const sdk = createClient(options);
  const server = new McpServer({ name: SERVER_NAME, version: SERVER_VERSION });
  registerTools(server, sdk, options.baseUrl);
  return server;
}
