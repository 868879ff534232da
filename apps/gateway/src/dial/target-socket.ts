import type net from "node:net";
import type { SharedReads } from "../base/shared-reads.ts";
import type { NativeTarget } from "./native-splice.ts";

/** What a target is read through: a Node socket, or (a tunnel to a direct exit that is spliced
 * from its first byte) a descriptor the splice addon dialled. */
export type TargetStream = net.Socket | NativeTarget;

/**
 * A socket whose application stream is the target's, with its billing cursor: the socket's byte
 * counters where unbilled target traffic begins. Everything before the first cursor (an
 * upstream proxy's CONNECT or SOCKS handshake) is the proxy's own business, never billed.
 */
export class TargetSocket<S extends TargetStream = net.Socket> {
  private read: number;
  private written: number;

  /** `reads`: the shared reads the socket was dialed with (null: it emits `data` as usual).
   * `early`: bytes of the target already read with the upstream's reply. */
  constructor(
    readonly socket: S,
    readonly reads: SharedReads | null,
    early = 0,
  ) {
    this.read = socket.bytesRead - early;
    this.written = socket.bytesWritten;
  }

  /** Billing starts over here (a pooled connection taking its next request). */
  restartBilling(): void {
    this.read = this.socket.bytesRead;
    this.written = this.socket.bytesWritten;
  }

  /** `bytes` just written are the proxy's own (an upstream's absolute-form request line and its
   * Proxy-Authorization): never billed. */
  excuseWritten(bytes: number): void {
    this.written += bytes;
  }

  /** What the target sent since the cursor never reached the client (a response head refused as
   * over 64 KiB or malformed, answered 502 instead): it is not billed. */
  dropReceived(): void {
    this.read = this.socket.bytesRead;
  }

  /** Bytes received from and sent to the target since the cursor, without moving it. */
  unbilled(): { received: number; sent: number } {
    return { received: this.socket.bytesRead - this.read, sent: this.socket.bytesWritten - this.written };
  }

  /** Bytes the target sent and received since the cursor; moves the cursor past them. */
  takeUnbilled(): number {
    const read = this.socket.bytesRead;
    const written = this.socket.bytesWritten ?? this.written;
    const delta = read - this.read + (written - this.written);
    if (delta <= 0) return 0;
    this.read = read;
    this.written = written;
    return delta;
  }
}
