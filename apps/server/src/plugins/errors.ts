import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError, driverErrorCode, isDatabaseUnavailable, SERVICE_UNAVAILABLE } from "../errors.ts";

type ValidationError = Parameters<typeof hasZodFastifySchemaValidationErrors>[0] & {
  validationContext?: string;
};

/** A message a person can act on that names the field. Messages our schemas write for people
 * ("Please enter a valid email address.") already name it and are passed through unchanged. */
export function validationMessage(error: ValidationError): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return "Invalid request";
  const first = error.validation[0];
  const context = error.validationContext ?? "body";
  const message = first?.message ?? "is invalid";
  const segments = (first?.instancePath ?? "").split("/").filter(Boolean);
  const field = segments.join(".");
  if (!field) {
    return context === "body" && first?.keyword === "invalid_type"
      ? "Request body must be a JSON object."
      : `Invalid ${context}: ${message}`;
  }
  const last = segments[segments.length - 1] ?? field;
  if (message.toLowerCase().includes(last.toLowerCase())) return message;
  return `${field}: ${message}`;
}

/** SQLSTATE class 22: a value PostgreSQL cannot hold (NUL in text, a number out of range…). */
function isDataException(error: unknown): boolean {
  return /^22[0-9A-Z]{3}$/.test(driverErrorCode(error) ?? "");
}

export const BAD_URL_MESSAGE = "Bad request: the path is not valid URL encoding.";
/** The router's limit on one path parameter (Fastify's maxParamLength, 100 characters): no id,
 * token or name the API knows is longer. */
export const LONG_PARAM_MESSAGE = "The path is too long: a path parameter may be at most 100 characters.";

/** Errors Fastify meets before any route or hook, where the handler below cannot see them: a path
 * that is not valid URL encoding (e.g. /assets/%c0%ae) or with a parameter past the router's limit
 * gets the one error shape, not Fastify's, and a 4xx. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.code === "FST_ERR_BAD_URL")
    return reply.code(400).send({ success: false, message: BAD_URL_MESSAGE });
  if (error.code === "FST_ERR_MAX_PARAM_LENGTH")
    return reply.code(414).send({ success: false, message: LONG_PARAM_MESSAGE });
  request.log.error({ err: error }, "request failed");
  return reply.code(500).send({ success: false, message: "Internal server error" });
}

/** One error model (STYLE habit 4): 4xx → {success:false, message}; 5xx → a fixed message, logged. */
async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError && error.expose) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, "request failed");
      const code = error.codeInBody ? { code: error.code } : {};
      return reply.code(error.statusCode).send({ success: false, message: error.message, ...code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.code(400).send({ success: false, message: validationMessage(error) });
    }
    if (isDatabaseUnavailable(error)) {
      // Nothing the client did: the database is away. It can retry; /readyz says not ready.
      request.log.warn({ err: error }, "database unavailable");
      return reply
        .code(503)
        .header("retry-after", "5")
        .send({ success: false, message: SERVICE_UNAVAILABLE });
    }
    if (isDataException(error)) {
      // A value the schemas let through but PostgreSQL cannot hold (SQLSTATE class 22): the
      // input is at fault, so it is a 400, and nothing was written.
      request.log.warn({ err: error }, "database refused a value");
      return reply.code(400).send({ success: false, message: "Invalid request: a value is malformed." });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large, 429s…).
      return reply.code(status).send({ success: false, message: error.message });
    }
    request.log.error({ err: error }, "request failed");
    return reply.code(status >= 500 && status <= 599 ? status : 500).send({
      success: false,
      message: "Internal server error",
    });
  });
}

export default fp(errorsPlugin, { name: "errors" });
