import { Refusal } from "@bytetoll/egress";
import {
  type Framing,
  forwardedHeaders,
  HeadTooLarge,
  type RequestHead,
  type ResponseHead,
} from "../base/http-message.ts";
import type { TunnelContext } from "../relay/tunnel-context.ts";

/* What a plain (absolute-URI) request and its answer look like to both paths that serve one:
 * the Node session's PlainRelay (plain-request.ts) and the native one (native-plain.ts). */

/** Told on a response (and a CONNECT's 200) when a sticky session's exit went down and the
 * session was given another: the exit IP changed. */
export const SESSION_MOVED_HEADER = "X-ByteToll-Session-Moved";

export interface PlainRequest {
  head: RequestHead;
  url: URL;
  framing: Framing;
  clientKeepAlive: boolean;
  /** This request, from its admission to its end. */
  tunnel: TunnelContext;
}

/** The 502 for a response head the gateway does not relay (either path). */
export function unrelayableHead(error: unknown): Refusal {
  const what =
    error instanceof HeadTooLarge
      ? "a response head over 64 KiB, which the gateway does not relay"
      : (error as Error).message;
  return new Refusal("upstream_failed", `The destination sent ${what}`);
}

/** The response head as the client gets it: hop-by-hop headers dropped, a moved session told,
 * and whether the connection stays open (either path). */
export function clientResponseHead(
  response: ResponseHead,
  sessionMoved: boolean,
  keepAlive: boolean,
): string {
  const moved = sessionMoved ? `${SESSION_MOVED_HEADER}: 1\r\n` : "";
  return `${response.statusLine}\r\n${forwardedHeaders(response.headers)}${moved}Connection: ${keepAlive ? "keep-alive" : "close"}\r\n\r\n`;
}

/** Whether the client connection carries another request after this response (either path): a
 * body that ends with the connection cannot be re-framed for a kept-alive client, and a chunked
 * body cannot go to an HTTP/1.0 client, so both end it. */
export function keepsClientFor(request: PlainRequest, framing: Framing): boolean {
  return (
    request.clientKeepAlive &&
    framing.kind !== "close" &&
    !(framing.kind === "chunked" && request.head.version === "1.0")
  );
}
