/** The channel migration 0008's triggers NOTIFY on (decision 006). */
export const CHANGES_CHANNEL = "bytetoll_changes";

/** What changed: a user's balance or e-mail, one of a user's sessions, or one of a user's orders
 * (key: the user id), or an API token (key: its hash). */
export type ChangeKind = "user" | "session" | "api_token" | "orders";

export interface Change {
  kind: ChangeKind;
  key: string;
}

const KINDS: ReadonlySet<string> = new Set<ChangeKind>(["user", "session", "api_token", "orders"]);

/** "<kind>:<key>" → Change; null for anything else (a newer writer's kind is ignored). */
export function parseChange(payload: string): Change | null {
  const colon = payload.indexOf(":");
  if (colon <= 0) return null;
  const kind = payload.slice(0, colon);
  const key = payload.slice(colon + 1);
  if (!KINDS.has(kind) || key === "") return null;
  return { kind: kind as ChangeKind, key };
}
