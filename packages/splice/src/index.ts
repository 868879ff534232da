import { createRequire } from "node:module";

/** What the native relay reports (see src/splice.c). */
export const SpliceEvent = {
  /** Bytes moved: sent once 64 KiB went unreported (plus at most one pipe's worth each way) or
   * at the first move a second after the last report. The end, an error and `stop` are not
   * preceded by one: the caller reads the rest off the counts then. */
  progress: 0,
  /** One direction finished: its source sent FIN, everything was written, the destination was
   * shut down for writing. `side`: 0 client → target, 1 target → client. */
  halfClosed: 1,
  /** Both directions finished; the relay has closed its descriptors. */
  done: 2,
  /** A socket failed (`side`: 0 client, 1 target; `code`: the errno name); the relay has closed
   * its descriptors. */
  error: 3,
} as const;

/** Indexes into the counts array the native relay keeps current. */
export const SpliceCount = { readTarget: 0, writtenTarget: 1, readClient: 2, writtenClient: 3 } as const;

export type SpliceEventHandler = (kind: number, side: number, code: string | undefined) => void;

/** A running relay, for `stop`. */
export type SpliceRelay = { readonly __spliceRelay: unique symbol };

/** A connect in progress, for `cancel`. */
export type SpliceDial = { readonly __spliceDial: unique symbol };

/** A listening socket of the native front door, for `listenerPort`, `resumeListener`, `closeListener`. */
export type NativeListener = { readonly __nativeListener: unique symbol };

/** A new connection: its descriptor (the caller's from now on), its peer, and the bytes that had
 * arrived (null: none yet). `fd` -1: accepting failed for want of descriptors or memory
 * (`address` is the errno name) and the listener waits for `resumeListener`. */
export type AcceptedHandler = (fd: number, address: string, port: number, head: Buffer | null) => void;

/** `code` undefined: connected, and `fd` is the caller's; otherwise the errno name (ECONNREFUSED…)
 * and -1. */
export type ConnectedHandler = (code: string | undefined, fd: number) => void;

export interface SpliceAddon {
  /** Relays between two connected, non-blocking TCP sockets' descriptors (watched as they are:
   * the caller keeps them open and idle, and closes them once the relay ended or was stopped)
   * until both directions finished, a socket failed, or `stop`. `toTarget` / `toClient` are written first. `counts` (Float64Array of 4) is kept
   * current, indexed by SpliceCount. */
  start(
    clientFd: number,
    targetFd: number,
    toTarget: Buffer | null,
    toClient: Buffer | null,
    counts: Float64Array,
    onEvent: SpliceEventHandler,
    /** Caps on what is read from the client ([0]) and the target ([1]); negative: none. A
     * direction that read its cap and wrote it all finishes without a shutdown, leaving both
     * sockets open for the next message (0: it only writes its first bytes); `done` follows once
     * both finished. Absent: no caps. */
    limits?: Float64Array,
  ): SpliceRelay;
  /** Stops watching the sockets at once; no event follows. Harmless after the end. */
  stop(relay: SpliceRelay): void;
  /** A non-blocking TCP connection to an IP address (TCP_NODELAY set), watched in the relays'
   * epoll set: no Node socket is made for it. Returns the errno name when the connect failed at
   * once. The descriptor handed to `onConnected` is the caller's: `start` relays it,
   * `closeDescriptor` closes it. */
  connect(address: string, port: number, onConnected: ConnectedHandler): SpliceDial | string;
  /** Gives up a connect in progress (its descriptor is closed); no callback follows. */
  cancel(dial: SpliceDial): void;
  closeDescriptor(fd: number): void;
  /** Makes a TCP socket's close send a reset instead of a FIN (SO_LINGER 0): for a socket closed
   * through a TLS socket over it. Absent from an addon built before it existed. */
  resetOnClose?(fd: number): void;
  /** A listening TCP socket on an IP address (SO_REUSEADDR and TCP_NODELAY set, the latter
   * inherited by every accepted socket), accepted in the relays' epoll set: no Node server or
   * socket is made. Returns the errno name when it cannot listen (EADDRINUSE…). Absent from an
   * addon built before it existed. */
  listen?(host: string, port: number, backlog: number, onAccepted: AcceptedHandler): NativeListener | string;
  /** The same on a listening socket this process inherited (`listenSocket` in its parent), which
   * other processes accept from too: whoever accepts first serves the connection. */
  listen?(fd: number, port: 0, backlog: number, onAccepted: AcceptedHandler): NativeListener | string;
  /** A listening socket for child processes to inherit (no close-on-exec), not watched here: its
   * descriptor, or the errno name. Absent from an addon built before it existed. */
  listenSocket?(host: string, port: number, backlog: number): number | string;
  listenerPort(listener: NativeListener): number;
  resumeListener(listener: NativeListener): void;
  closeListener(listener: NativeListener): void;
  /** The function every `readSome` reports to, once per thread: `bytes` a Buffer (empty at end of
   * stream), or null and the errno name. */
  setReadHandler(onRead: (fd: number, bytes: Buffer | null, code: string | undefined) => void): void;
  /** Waits until the socket is readable and reads what is there (up to 8 KiB), for the read
   * handler; no JS object is made for the wait. */
  readSome(fd: number): void;
  /** Stops waiting; the handler is not called. */
  cancelRead(fd: number): void;
  /** Sends bytes on a socket nothing else writes, without blocking: how many went, or the errno
   * name. Absent from an addon built before it existed. */
  writeSome?(fd: number, bytes: Buffer): number | string;
  /** What the process holds now: running relays, pipes with bytes in them, and empty pipes kept
   * for reuse (a direction borrows a pipe only while bytes are in it; none is kept once no relay
   * runs), and the epoll sets the relays are watched in (one per event loop that ran one). */
  stats(): { relays: number; pipesInUse: number; pipesPooled: number; sets: number };
  /** null, or why splice(2) does not work on TCP sockets here (one byte through a loopback
   * connection and a pipe, both ways; a sandbox or an emulated kernel may refuse it). */
  probe(): string | null;
}

/** Why the addon is not there, when it is not. */
export let unavailableBecause: string | null = null;

function load(): SpliceAddon | null {
  if (process.platform !== "linux") {
    unavailableBecause = `splice(2) is Linux only (this is ${process.platform})`;
    return null;
  }
  let addon: SpliceAddon;
  try {
    addon = createRequire(import.meta.url)("../build/Release/splice.node") as SpliceAddon;
  } catch (error) {
    unavailableBecause = `the addon is not built (${(error as Error).message.split("\n")[0]})`;
    return null;
  }
  return usableAddon(addon);
}

/** The addon, once one byte went through splice(2) on this machine's TCP sockets; null, with the
 * reason in `unavailableBecause`, when it did not: every tunnel is then relayed in JavaScript
 * rather than failing. */
export function usableAddon(addon: SpliceAddon): SpliceAddon | null {
  const failed = addon.probe();
  if (failed === null) {
    unavailableBecause = null;
    return addon;
  }
  unavailableBecause = `splice(2) does not work on TCP sockets here (${failed})`;
  return null;
}

/** The native relay, or null when it was not built here (no compiler at install, not Linux) or
 * the start-up probe found splice(2) refused; `unavailableBecause` says which. */
export const spliceAddon: SpliceAddon | null = load();
