import { NativeSocket } from "../base/native-socket.ts";
import type { TargetSocket, TargetStream } from "../dial/dial.ts";
import { SPLICE_HALF_CLOSED } from "../dial/native-splice.ts";
import type { ConnectionEnd, TunnelContext } from "./tunnel-context.ts";

/** A TLS server's first flight (ServerHello and certificate) is well over this: a tunnel to 443
 * whose target hung up having sent less never completed a handshake. */
const TLS_FIRST_FLIGHT_BYTES = 512;

/**
 * Watches one tunnel's target socket (dialled already) and tells how the tunnel ended once it closes: who finished
 * first (client or target), whether the target reset, and whether a tunnel to 443 ended before a
 * TLS first flight could have arrived.
 */
export class TunnelEnd {
  private clientFirst = false;
  private targetFirst = false;
  private reset = false;
  /** Where the target's own traffic starts on the socket's counters. The billing cursor cannot
   * tell: the meter moves it on every chunk, so at close it has seen almost nothing. */
  private readonly readAtStart: number;
  private readonly writtenAtStart: number;
  private readonly target: TargetSocket<TargetStream>;

  constructor(
    private readonly tunnel: TunnelContext,
    private readonly ended: (end: ConnectionEnd) => void,
  ) {
    const target = tunnel.targetSocket;
    if (!target) throw new Error("a tunnel's end is watched once its target is dialled");
    this.target = target;
    const socket = target.socket;
    const unbilled = target.unbilled();
    this.readAtStart = socket.bytesRead - unbilled.received;
    this.writtenAtStart = socket.bytesWritten - unbilled.sent;
    // Ahead of Node's own listener, which ends our side at once on a socket that is not half-open.
    // (A native target never emits `end`: its relay tells of a FIN with SPLICE_HALF_CLOSED.)
    if (!(socket instanceof NativeSocket)) socket.prependOnceListener("end", this.targetEnded);
    // Relayed in JavaScript, the client's FIN ends our writing; spliced, the relay says so.
    socket.on(SPLICE_HALF_CLOSED, this.halfClosed);
    socket.on("error", this.failed);
    socket.once("close", this.closed);
  }

  private readonly targetEnded = () => {
    if (this.clientFirst || this.target.socket.writableEnded) this.clientFirst = true;
    else this.targetFirst = true;
  };

  private readonly halfClosed = (side: "client" | "target") => {
    if (side === "target") this.targetEnded();
    else if (!this.targetFirst) this.clientFirst = true;
  };

  private readonly failed = (error: NodeJS.ErrnoException) => {
    if (this.clientFirst || this.target.socket.writableEnded) return;
    this.reset ||= error.code === "ECONNRESET" || error.code === "EPIPE";
  };

  private readonly closed = () => {
    const socket = this.target.socket;
    const received = socket.bytesRead - this.readAtStart;
    const sent = socket.bytesWritten - this.writtenAtStart;
    const cutShort =
      this.targetFirst && this.tunnel.target.port === 443 && sent > 0 && received < TLS_FIRST_FLIGHT_BYTES;
    this.ended(this.reset ? "reset" : cutShort ? "tls_cut" : "ok");
  };
}
