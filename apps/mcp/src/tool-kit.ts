import { ByteTollError } from "@bytetoll/sdk";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** What every read-only tool's description ends with. */
export const FREE = "Free: reads only, changes nothing.";

/** The text an assistant reads: the data as JSON, or what went wrong and what to check. */
export function answer(data: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(data, null, 2) }] };
}

export function explain(error: unknown): CallToolResult {
  let text = error instanceof Error ? error.message : String(error);
  if (error instanceof ByteTollError && error.kind === "network") {
    text = `${text}. Check BYTETOLL_URL and that the ByteToll server is running.`;
  } else if (error instanceof ByteTollError && error.status === 401) {
    text =
      "ByteToll refused the API token (401 Unauthorized). Check BYTETOLL_API_TOKEN: copy it from the Connect page.";
  } else if (error instanceof ByteTollError && error.kind === "response") {
    text = `ByteToll answered ${error.status}: ${text}`;
  }
  return { content: [{ type: "text", text }], isError: true };
}

/** Runs one SDK call and answers its data, or what went wrong. */
export const run = async (call: () => Promise<unknown>): Promise<CallToolResult> => {
  try {
    return answer(await call());
  } catch (error) {
    return explain(error);
  }
};

export const readOnly = { readOnlyHint: true, openWorldHint: false };
