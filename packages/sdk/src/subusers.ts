import { createSubuserSchema, updateSubuserSchema } from "@bytetoll/contracts";
import { dataOf, type HttpOptions, send } from "./http.ts";
import type { CreateSubuser, Subuser, UpdateSubuser } from "./types.ts";
import { validate, validateId } from "./validate.ts";

/** Sub-users: more proxy credentials of your account, each with its own data limit. Their traffic
 * draws on your balance at your prices; at its limit a sub-user gets 402 subuser_limit_reached. */
export function subusersApi(http: HttpOptions) {
  const data = dataOf(http);
  const path = (id: string) => `/subusers/${validateId("subuserId", id)}`;
  return {
    /** Every sub-user, oldest first, with this period's use. */
    list: () => data<Subuser[]>({ method: "GET", path: "/subusers" }),
    get: async (id: string) => data<Subuser>({ method: "GET", path: path(id) }),
    /** `{label, limit_gb?, limit_period?}`: limit_gb null (default) is no limit; the period is
     * day, week, month or total (default), restarting at 00:00 UTC, on Mondays, on the 1st. */
    async create(request: CreateSubuser): Promise<Subuser> {
      return data<Subuser>({
        method: "POST",
        path: "/subusers",
        body: validate(createSubuserSchema, request),
      });
    },
    /** Changes any of label, limit_gb, limit_period, enabled. Disabling closes its connections. */
    async update(id: string, changes: UpdateSubuser): Promise<Subuser> {
      return data<Subuser>({ method: "PATCH", path: path(id), body: validate(updateSubuserSchema, changes) });
    },
    /** A new password, same username; the old one is refused within a second. */
    regeneratePassword: async (id: string) => data<Subuser>({ method: "POST", path: `${path(id)}/password` }),
    /** Deletes it: its credentials stop working within a second; its usage stays in your statistics. */
    async delete(id: string): Promise<void> {
      await send(http, { method: "DELETE", path: path(id) });
    },
  };
}
