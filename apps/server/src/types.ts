import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Role, RouteAccess, Scope } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import type { GatewayHost } from "@bytetoll/egress";
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.ts";
import type { Mailer } from "./plugins/mail.ts";

/** The Fastify instance every module receives: zod schemas type its requests. */
export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Who made the request, set by `app.authenticate`. `sessionId` is null for API tokens.
 * `id` is the account the request acts on (its data, its money); `actorId` and `email` are the
 * person's: the same for the owner and API tokens, a member's own for a switched session
 * (docs/product.md#team-members). */
export interface AuthUser {
  id: string;
  actorId: string;
  email: string;
  role: Role;
  /** Null for sessions and the account's original API token: every scope. */
  scopes: readonly Scope[] | null;
  /** A scoped API token's id, for its last_used_at. */
  apiTokenId: string | null;
  /** Epoch ms after which a scoped token stops working; null when it has no end. */
  expiresAt: number | null;
  sessionId: string | null;
  /** An operator disabled the account: `authenticate` answers 403 (docs/product.md#operators). */
  disabled: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    /** The gateway app this process hosts (its gateway and probes); null when none was handed in
     * (then no exit can be tested and the learner probes nothing). */
    gatewayHost: GatewayHost | null;
    /** preHandler: 401 unless the bearer token is a live session JWT or an API token. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Whose bearer token the request carries, or null; resolved once per request. */
    identify: (request: FastifyRequest) => Promise<AuthUser | null>;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    /** What the route needs (plugins/route-access.ts fills it from its table when absent). */
    access?: RouteAccess;
  }
}

/** Narrows `request.user` inside handlers that run after `app.authenticate`. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error("requireUser called on a route without app.authenticate");
  return request.user;
}
