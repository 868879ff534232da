import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import { resetConnection } from "../base/connection-reset.ts";
import type { ClientSocket } from "../base/native-socket.ts";

/** What migration 0012's trigger sends on the change feed when a proxy credential's password,
 * owner or name changes or the credential is deleted: this prefix, then the username. */
const CREDENTIAL_CHANGE_PREFIX = "proxy_credential:";

/**
 * The client connections that presented each username, so a revoked credential's tunnels and
 * kept-alive connections can be closed. A connection is registered before its credential is
 * checked: a change that lands while the check is still reading the old row closes it too.
 */
export class LiveCredentials {
  private readonly holders = new Map<string, Set<ClientSocket>>();

  hold(username: string, connection: ClientSocket): void {
    let held = this.holders.get(username);
    if (!held) {
      held = new Set();
      this.holders.set(username, held);
    }
    if (held.has(connection)) return;
    held.add(connection);
    const set = held;
    connection.once("close", () => {
      set.delete(connection);
      if (set.size === 0 && this.holders.get(username) === set) this.holders.delete(username);
    });
  }

  /** Resets every connection that presented this username: a tunnel cut mid-transfer must not
   * look like a finished download. */
  revoke(username: string): void {
    const held = this.holders.get(username);
    this.holders.delete(username);
    for (const connection of held ?? []) resetConnection(connection);
  }
}

/** Calls `changed(username)` for every proxy credential change committed in the database, on
 * whichever instance wrote it. Returns the stop function. */
export function watchCredentialChanges(
  database: Database,
  changed: (username: string) => void,
): Promise<() => Promise<void>> {
  return database.listen(CHANGES_CHANNEL, {
    notification(payload) {
      if (payload.startsWith(CREDENTIAL_CHANGE_PREFIX))
        changed(payload.slice(CREDENTIAL_CHANGE_PREFIX.length));
    },
    live() {
      // While the feed is down, cached credentials still end after the cache TTL.
    },
  });
}
