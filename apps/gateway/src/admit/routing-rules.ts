import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import type { AccountDirectory } from "./accounts.ts";

/** Migration 0013's trigger announces a user's routing rules as "routing_rules:<user id>". */
const ROUTING_RULES_PREFIX = "routing_rules:";

/** Drops an account's cached datacenter rules as soon as a change to them commits (the toggle on
 * the dashboard, the learner's verdicts), on whichever instance wrote it; while the feed is down
 * the cache still expires after its TTL. Returns the stop function. */
export function watchRoutingRules(
  database: Database,
  accounts: AccountDirectory,
): Promise<() => Promise<void>> {
  return database.listen(CHANGES_CHANNEL, {
    notification(payload) {
      if (!payload.startsWith(ROUTING_RULES_PREFIX)) return;
      accounts.forgetRoutingRules(payload.slice(ROUTING_RULES_PREFIX.length));
    },
    live() {},
  });
}
