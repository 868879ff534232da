import type { App } from "../../types.ts";
import { PaymentUnavailableError } from "./provider.ts";

/** The app's error handler hides every 5xx message; a provider outage is a 502/503 the customer
 * should read ("Card payments are not available."). Everything else goes to the app's handler. */
export function replyUnavailable(app: App) {
  const parent = app.errorHandler;
  app.setErrorHandler(function (error, request, reply) {
    if (error instanceof PaymentUnavailableError) {
      request.log.warn({ err: error }, "payment provider unavailable");
      return reply.code(error.statusCode).send({ success: false, message: error.message });
    }
    return parent.call(this, error, request, reply);
  });
}
