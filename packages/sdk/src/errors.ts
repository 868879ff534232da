/** Why a call failed: the server refused it, no answer came, or its arguments were wrong. */
export type ByteTollErrorKind = "response" | "network" | "invalid_argument";

/**
 * Every failure of the client. `status` is the HTTP status of the server's answer (0 when none
 * came, or when the arguments were refused before anything was sent); `message` is the server's
 * own message (`{success:false, message}`) or says what was wrong with the arguments.
 */
export class ByteTollError extends Error {
  override readonly name = "ByteTollError";
  readonly status: number;
  readonly kind: ByteTollErrorKind;

  constructor(message: string, status: number, kind: ByteTollErrorKind, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.kind = kind;
  }

  /** A bad argument: the message names the field, nothing was sent. */
  static invalidArgument(message: string): ByteTollError {
    return new ByteTollError(message, 0, "invalid_argument");
  }
}
