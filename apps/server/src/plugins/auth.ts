import { API_TOKEN_PREFIX } from "@bytetoll/contracts";
import { hashSecret } from "@bytetoll/db";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { unauthorized } from "../errors.ts";
import { verifyAppToken } from "../lib/app-token.ts";
import type { AuthUser } from "../types.ts";

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{16,2048})$/i;

interface UserRow {
  id: string;
  email: string;
}

/**
 * Bearer auth for every protected route: an app JWT (signature, exp, and a session row that is
 * neither revoked nor expired — so logout takes effect at once) or a personal API token (DESIGN §2),
 * looked up by its hash.
 */
async function authPlugin(app: FastifyInstance) {
  app.decorateRequest("user", null);

  async function resolve(request: FastifyRequest): Promise<AuthUser | null> {
    const match = BEARER.exec(request.headers.authorization ?? "");
    const token = match?.[1];
    if (!token) return null;
    if (token.split(".").length === 3) {
      const claims = await verifyAppToken(app.config.JWT_SECRET, token);
      if (!claims) return null;
      const [row] = await app.database.query<UserRow>(
        `SELECT u.id, u.email FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > now()`,
        [claims.sessionId, claims.userId],
      );
      return row ? { id: row.id, email: row.email, sessionId: claims.sessionId } : null;
    }
    // Anything else must look like an API token before it costs a database lookup.
    if (!token.startsWith(API_TOKEN_PREFIX)) return null;
    const [row] = await app.database.query<UserRow>(
      `SELECT u.id, u.email FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1`,
      [hashSecret(token)],
    );
    return row ? { id: row.id, email: row.email, sessionId: null } : null;
  }

  app.decorate("authenticate", async (request: FastifyRequest) => {
    const user = await resolve(request);
    if (!user) throw unauthorized();
    request.user = user;
  });
}

export default fp(authPlugin, { name: "auth" });
