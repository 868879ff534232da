/** The one error type the API throws on purpose: its status and message reach the client
 * (for 4xx); anything else is an internal error and its details stay in the log. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly code = "app_error",
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const unauthorized = () => new AppError(401, "Unauthorized", "unauthorized");
export const notFound = (message = "Not found") => new AppError(404, message, "not_found");
