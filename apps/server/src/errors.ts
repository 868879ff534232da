/** The one error type the API throws on purpose: its status and message reach the client for
 * 4xx. A 5xx shows "Internal server error" unless `expose` says its message was written for the
 * customer (e.g. 502 "The payment provider is unavailable."); anything else stays in the log. */
export class AppError extends Error {
  readonly expose: boolean;
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code = "app_error",
    options: { expose?: boolean } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.expose = options.expose ?? statusCode < 500;
  }
}

export const unauthorized = () => new AppError(401, "Unauthorized", "unauthorized");
export const notFound = (message = "Not found") => new AppError(404, message, "not_found");
