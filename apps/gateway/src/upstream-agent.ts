import http, { type ClientRequestArgs } from "node:http";
import type net from "node:net";
import type { Duplex } from "node:stream";
import { dial } from "./dial.ts";
import type { VettedTarget } from "./egress-guard.ts";
import type { UpstreamSpec } from "./upstreams.ts";

export interface UpstreamRequestArgs extends ClientRequestArgs {
  upstream: UpstreamSpec;
  target: VettedTarget;
  /** Called with every new target socket, before any byte can arrive on it. */
  onSocketCreated: (socket: net.Socket) => void;
}

/** Keeps target connections alive per (upstream, vetted address, port) so repeated plain-HTTP
 * requests skip the dial, and dials new ones through the chosen upstream. */
export class UpstreamAgent extends http.Agent {
  constructor() {
    super({
      keepAlive: true,
      keepAliveMsecs: 30_000,
      maxFreeSockets: 256,
      timeout: 60_000,
      scheduling: "lifo",
    });
  }

  override getName(options?: ClientRequestArgs): string {
    const args = options as UpstreamRequestArgs;
    return `${args.upstream.id}|${args.target.address}|${args.target.port}`;
  }

  override createConnection(
    options: ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): undefined {
    const args = options as UpstreamRequestArgs;
    dial(args.upstream, args.target).then(
      (socket) => {
        args.onSocketCreated(socket);
        callback?.(null, socket);
      },
      (error: Error) => callback?.(error, undefined as unknown as Duplex),
    );
    return undefined;
  }
}
