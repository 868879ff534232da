import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Database } from "@bytetoll/db";
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

/** Who made the request, set by `app.authenticate`. `sessionId` is null for API tokens. */
export interface AuthUser {
  id: string;
  email: string;
  sessionId: string | null;
  /** An operator disabled the account: `authenticate` answers 403 (docs/product.md#operators). */
  disabled: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: Database;
    mailer: Mailer;
    /** preHandler: 401 unless the bearer token is a live session JWT or an API token. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Whose bearer token the request carries, or null; resolved once per request. */
    identify: (request: FastifyRequest) => Promise<AuthUser | null>;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

/** Narrows `request.user` inside handlers that run after `app.authenticate`. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new Error("requireUser called on a route without app.authenticate");
  return request.user;
}
