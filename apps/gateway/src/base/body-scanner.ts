/** Finds where a message body ends: how many bytes of each chunk still belong to it, and whether
 * it is complete (a Content-Length count, or a chunked body's scanner). May throw on bad framing. */
export interface BodyScanner {
  scan(chunk: Buffer): number;
  readonly done: boolean;
}
