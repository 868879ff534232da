import net from "node:net";
import tls from "node:tls";
import { Refusal } from "@bytetoll/egress";
import { SocketReader } from "../base/socket-reader.ts";
import { secureContextFor, type TargetSocket } from "./dial.ts";
import type { TargetConnection } from "./target-pool.ts";

const HANDSHAKE_TIMEOUT_MS = 10_000;

/** Is this absolute-form request for a site reached over TLS (`https://`, `wss://`)? */
export function isSecureUrl(url: URL): boolean {
  return url.protocol === "https:" || url.protocol === "wss:";
}

/**
 * `GET https://…` in absolute form, as squid takes it: the gateway speaks TLS to the site itself
 * over the connection `dialed` (direct, or tunnelled through the exit). The site's certificate is
 * verified as a browser would: Node's roots (plus NODE_EXTRA_CA_CERTS, and `ca` when given) and
 * the host name. Billing stays on the dialed socket's counters, so what is billed is what the
 * site saw, TLS records and handshake included, as in a CONNECT tunnel.
 */
export async function openOriginTls(
  dialed: TargetSocket,
  hostname: string,
  ca: string | undefined,
): Promise<TargetConnection> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  const secure = tls.connect({
    socket: dialed.socket,
    host,
    servername: net.isIP(host) ? undefined : host,
    secureContext: ca === undefined ? undefined : secureContextFor(ca),
    ALPNProtocols: ["http/1.1"],
  });
  // Either socket going away ends both.
  secure.once("close", () => dialed.socket.destroy());
  secure.on("timeout", () => secure.destroy());
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("TLS handshake timed out")), HANDSHAKE_TIMEOUT_MS);
      secure.once("secureConnect", () => {
        clearTimeout(timer);
        resolve();
      });
      secure.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  } catch (error) {
    secure.destroy();
    throw new Refusal("upstream_failed", `TLS to ${host} failed: ${(error as Error).message}`);
  }
  secure.on("error", () => {});
  return { target: dialed, socket: secure, reader: new SocketReader(secure), reused: false };
}
