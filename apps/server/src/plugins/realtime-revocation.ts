import { hashSecret } from "@bytetoll/db";
import type { FastifyInstance } from "fastify";
import type { Socket } from "socket.io";
import type { AuthUser } from "../types.ts";

type TokenCheck = (token: string) => Promise<AuthUser | null>;

/** The change-feed payload that announces a change to what authorised this socket: any session
 * of its user (an app JWT) or its API token being replaced or deleted. */
function revocationGroup(user: AuthUser, token: string): string {
  return user.sessionId ? `session:${user.actorId}` : `api_token:${hashSecret(token)}`;
}

/**
 * Closes signed-in sockets whose bearer token stopped being valid (logout, sign-out everywhere,
 * a replaced API token). Every instance hears the database's change feed (decision 006), so each
 * re-checks its own sockets when their user's sessions or their token change, and all of them
 * after a feed outage. The check is the handshake's: the token through the app's bearer auth.
 */
export function createSocketRevocation(app: FastifyInstance, isValid: TokenCheck) {
  const byGroup = new Map<string, Map<Socket, string>>();

  async function recheck(sockets: Map<Socket, string>): Promise<void> {
    for (const [socket, token] of [...sockets]) {
      if (socket.connected && !(await isValid(token))) socket.disconnect(true);
    }
  }

  app.changeFeed.onChange((payload) => {
    const groups = payload === null ? [...byGroup.values()] : [byGroup.get(payload)];
    for (const sockets of groups) {
      if (sockets) {
        recheck(sockets).catch((error) => app.log.warn({ err: error }, "socket revocation check failed"));
      }
    }
  });

  return {
    /** Watches a socket signed in with `token` until it disconnects. */
    track(socket: Socket, user: AuthUser, token: string): void {
      const group = revocationGroup(user, token);
      const sockets = byGroup.get(group) ?? new Map<Socket, string>();
      byGroup.set(group, sockets.set(socket, token));
      socket.once("disconnect", () => {
        sockets.delete(socket);
        if (sockets.size === 0 && byGroup.get(group) === sockets) byGroup.delete(group);
      });
    },
  };
}
