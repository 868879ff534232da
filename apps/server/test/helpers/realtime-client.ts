import type { AddressInfo } from "node:net";
import { io, type Socket } from "socket.io-client";
import type { App } from "../../src/types.ts";

/** A socket.io client of `app` (listening on loopback) signed in with `token`, over WebSocket and
 * without reconnection; resolves once connected, rejects (and disconnects) if the server refuses. */
export async function connectRealtime(app: App, token: string): Promise<Socket> {
  const { port } = app.server.address() as AddressInfo;
  const socket = io(`http://127.0.0.1:${port}`, {
    path: "/socket.io",
    transports: ["websocket"],
    reconnection: false,
    auth: { token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("connect_error", (error) => {
      socket.disconnect();
      reject(error);
    });
  });
  return socket;
}
