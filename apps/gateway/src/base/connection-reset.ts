import type net from "node:net";
import { TLSSocket } from "node:tls";
import { spliceAddon } from "@bytetoll/splice";
import type { ClientSocket } from "./native-socket.ts";

/** The TCP socket under a TLS connection the gateway accepted, as Node keeps it. */
type AcceptedTls = TLSSocket & { _parent?: (net.Socket & { _handle?: { fd?: number } | null }) | null };

/**
 * Ends a client connection with a TCP reset instead of a FIN, for a cut the client must not take
 * for a finished transfer: a tunnel's bytes (CONNECT, SOCKS5) or a body that ends with the
 * connection would otherwise look complete. A spliced socket's relay is stopped first (its
 * destroy does that), then the reset closes it. A TLS connection (8443) is not reset directly:
 * closing the TCP socket under a live TLS socket has crashed Node (decision 013). Its TCP socket
 * is set to reset when closed (SO_LINGER 0, through the native addon) and the TLS socket is
 * destroyed, which closes it; without the addon it ends without a close_notify, which strict TLS
 * clients report as a truncation.
 */
export function resetConnection(client: ClientSocket): void {
  if (client instanceof TLSSocket) {
    const fd = (client as AcceptedTls)._parent?._handle?.fd;
    if (typeof fd === "number" && fd >= 0) spliceAddon?.resetOnClose?.(fd);
  } else {
    const socket = client as net.Socket;
    try {
      if (!socket.destroyed && typeof socket.resetAndDestroy === "function") socket.resetAndDestroy();
    } catch {
      // A socket without a TCP handle (a pipe) cannot be reset: it is closed.
    }
  }
  client.destroy();
}
