import { errorResponse } from "@bytetoll/contracts";
import type { FastifyRequest } from "fastify";

export const adminErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  422: errorResponse,
  429: errorResponse,
};

const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;

/** The Idempotency-Key header of a credit, when it is well-formed (a retry of the same credit with
 * it is a no-op; another credit with it is refused). */
export function idempotencyKey(request: FastifyRequest): string | undefined {
  const key = request.headers["idempotency-key"];
  return typeof key === "string" && IDEMPOTENCY_KEY.test(key) ? key : undefined;
}
