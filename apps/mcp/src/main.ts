#!/usr/bin/env node
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createByteTollMcpServer } from "./server.ts";

// stdout carries the MCP protocol: everything for a person goes to stderr.
const log = (message: string) => process.stderr.write(`bytetoll-mcp: ${message}\n`);

const baseUrl = process.env.BYTETOLL_URL ?? "";
const apiToken = process.env.BYTETOLL_API_TOKEN ?? "";
if (!baseUrl || !apiToken) {
  log("set BYTETOLL_URL (your ByteToll address) and BYTETOLL_API_TOKEN (the API token of the Connect page)");
  process.exit(1);
}

try {
  const server = createByteTollMcpServer({ baseUrl, apiToken });
  await server.connect(new StdioServerTransport());
  log(`serving ${baseUrl} over stdio`);
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
