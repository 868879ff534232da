import { createSubuserSchema, updateSubuserSchema } from "@bytetoll/contracts";
import type { ByteTollClient } from "@bytetoll/sdk";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

const subuserId = z.string().min(1).max(64).describe("The sub-user's id, as list_subusers gives it");
const BILLING = "Its traffic is billed from your balance at your prices and counts against its own limit.";

/** Sub-users: list, create, change, new password, delete (each change is one API call). */
export function registerSubuserTools(
  server: McpServer,
  sdk: ByteTollClient,
  run: (call: () => Promise<unknown>) => Promise<CallToolResult>,
) {
  server.registerTool(
    "list_subusers",
    {
      title: "Sub-users",
      description:
        "Your sub-users: extra proxy credentials, each with a label, username, password, data limit " +
        "(limit_gb per day, week, month or total; null is none), this period's use and whether enabled. Free: reads only, changes nothing.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => run(() => sdk.subusers.list()),
  );

  server.registerTool(
    "create_subuser",
    {
      title: "Create a sub-user",
      description: `Creates proxy credentials for a team member or a job, with an optional data limit. Free to create. ${BILLING}`,
      inputSchema: createSubuserSchema.shape,
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    (request) => run(() => sdk.subusers.create(request)),
  );

  server.registerTool(
    "update_subuser",
    {
      title: "Change a sub-user",
      description:
        "Changes a sub-user's label, limit_gb (null: no limit), limit_period or enabled. Disabling refuses " +
        "its proxy requests and closes its connections within a second. Free: changes no balance.",
      inputSchema: { id: subuserId, ...updateSubuserSchema.shape },
      annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ id, ...changes }) => run(() => sdk.subusers.update(id, changes)),
  );

  server.registerTool(
    "regenerate_subuser_password",
    {
      title: "New sub-user password",
      description:
        "Replaces a sub-user's password (same username); the old one is refused within a second and its " +
        "open connections close. Free.",
      inputSchema: { id: subuserId },
      annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ id }) => run(() => sdk.subusers.regeneratePassword(id)),
  );

  server.registerTool(
    "delete_subuser",
    {
      title: "Delete a sub-user",
      description:
        "Deletes a sub-user: its credentials stop working within a second; its past usage stays in your " +
        "statistics. This cannot be undone. Free.",
      inputSchema: { id: subuserId },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    ({ id }) => run(() => sdk.subusers.delete(id).then(() => ({ deleted: id }))),
  );
}
