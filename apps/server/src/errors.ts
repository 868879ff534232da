import { accountDisabledMessage } from "@bytetoll/contracts";

/** The one error type the API throws on purpose: its status and message reach the client for
 * 4xx. A 5xx shows "Internal server error" unless `expose` says its message was written for the
 * customer (e.g. 502 "The payment provider is unavailable."); anything else stays in the log. */
export class AppError extends Error {
  readonly expose: boolean;
  /** Sends `code` in the body too, for refusals a client tells apart. */
  readonly codeInBody: boolean;
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code = "app_error",
    options: { expose?: boolean; codeInBody?: boolean } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.expose = options.expose ?? statusCode < 500;
    this.codeInBody = options.codeInBody ?? false;
  }
}

export const unauthorized = () => new AppError(401, "Unauthorized", "unauthorized");
/** What every call of a disabled account answers; `contact` is the config's SUPPORT_CONTACT. */
export const accountDisabled = (contact: string) =>
  new AppError(403, accountDisabledMessage(contact), "account_disabled");
export const notFound = (message = "Not found") => new AppError(404, message, "not_found");

/** A payment provider could not be reached or refused: the customer reads why and may retry. */
export const paymentUnavailable = (message: string, statusCode = 502) =>
  new AppError(statusCode, message, "payment_unavailable", { expose: true });

/** What a client reads while the database is away: nothing it sent was wrong, and it may retry. */
export const SERVICE_UNAVAILABLE = "The service is temporarily unavailable. Please try again shortly.";

/** Errors and their causes, outermost first: drizzle wraps the driver's error (its `code`, the
 * SQLSTATE) in a DrizzleQueryError whose `cause` it is. */
function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (let depth = 0; error && typeof error === "object" && depth < 8; depth++) {
    yield error as { code?: unknown; message?: unknown };
    error = (error as { cause?: unknown }).cause;
  }
}

/** The SQLSTATE (or socket error code) of a failed query, wherever the wrapping put it. */
export function driverErrorCode(error: unknown): string | undefined {
  for (const link of errorChain(error)) if (typeof link.code === "string") return link.code;
  return undefined;
}

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);
// 08xxx: connection exception; 57P01-03: the server is shutting down or not accepting connections;
// 53300: it has no connection slot left.
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;
const CONNECTION_MESSAGES = /Connection terminated|connection error|timeout exceeded when trying to connect/i;

/** True when a query failed because the database could not be reached, not because of the query. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of errorChain(error)) {
    const code = typeof link.code === "string" ? link.code : "";
    if (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code)) return true;
    if (typeof link.message === "string" && CONNECTION_MESSAGES.test(link.message)) return true;
  }
  return false;
}
