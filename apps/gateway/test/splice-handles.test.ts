import net from "node:net";
import { type SpliceAddon, SpliceEvent, spliceAddon } from "@bytetoll/splice";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NativeSocket } from "../src/base/native-socket.ts";

/**
 * What `connect` and `start` hand back is a number naming a slot of the addon's table, not an
 * object: one that ended, one of the other kind, or any other number must name nothing, so a
 * late `cancel` or `stop` (a socket destroyed after its relay ended, a cut racing the end) can
 * never touch another tunnel's connect or relay. And the epoll bookkeeping behind a relay's end
 * (its sockets left in the set until its handler ran) must never drop a wait that handler began.
 */
describe.skipIf(!spliceAddon?.connect)("the splice addon's handles and epoll set", () => {
  const addon = spliceAddon as SpliceAddon;
  let server: net.Server;
  const accepted: net.Socket[] = [];

  beforeAll(async () => {
    server = net.createServer((socket) => {
      accepted.push(socket);
      socket.on("data", (bytes) => socket.write(bytes));
      socket.on("end", () => socket.end());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  const port = () => (server.address() as net.AddressInfo).port;

  /** A connect through the addon: its handle and its descriptor once connected. */
  async function dialled(): Promise<{ dial: ReturnType<SpliceAddon["connect"]>; fd: number }> {
    let dial: ReturnType<SpliceAddon["connect"]> = "not yet";
    const fd = await new Promise<number>((resolve, reject) => {
      dial = addon.connect("127.0.0.1", port(), (code, connected) =>
        code === undefined ? resolve(connected) : reject(new Error(code)),
      );
    });
    expect(typeof dial).toBe("number");
    return { dial, fd };
  }

  it("does nothing for a cancel after the callback, a handle of the other kind, or a made-up number", async () => {
    const first = await dialled();
    const second = await dialled();
    const relaysBefore = addon.stats().relays;
    const events: number[] = [];
    const relay = addon.start(first.fd, second.fd, null, null, new Float64Array(4), (kind) => {
      events.push(kind);
    });
    expect(typeof relay).toBe("number");
    expect(addon.stats().relays).toBe(relaysBefore + 1);

    // The connects ended at their callbacks: cancelling them now closes nothing.
    addon.cancel(first.dial as never);
    addon.cancel(second.dial as never);
    // A relay's handle given to cancel, a connect's given to stop, numbers from nowhere.
    addon.cancel(relay as never);
    addon.stop(first.dial as never);
    for (const bogus of [-1, 0.5, 2 ** 60, Number.NaN, (relay as unknown as number) + 1])
      addon.stop(bogus as never);
    expect(addon.stats().relays).toBe(relaysBefore + 1);

    addon.stop(relay);
    addon.stop(relay);
    expect(addon.stats().relays).toBe(relaysBefore);
    expect(events).toEqual([]);
    addon.closeDescriptor(first.fd);
    addon.closeDescriptor(second.fd);
  });

  it("stops a relay by its handle until it ends, and not after", async () => {
    const acceptedBefore = accepted.length;
    const { fd } = await dialled();
    const peer = await dialled();
    await vi.waitFor(() => expect(accepted.length).toBe(acceptedBefore + 2));
    let ended!: () => void;
    const end = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const relay = addon.start(fd, peer.fd, null, null, new Float64Array(4), (kind) => {
      if (kind === SpliceEvent.done || kind === SpliceEvent.error) ended();
    });
    // Both far ends finish: so do both directions, and the relay ends.
    for (const socket of accepted.slice(acceptedBefore)) socket.end();
    await end;
    const after = addon.stats().relays;
    addon.stop(relay);
    expect(addon.stats().relays).toBe(after);
    addon.closeDescriptor(fd);
    addon.closeDescriptor(peer.fd);
  });

  it("hears a socket read from inside its relay's end handler (the end does not unwatch it then)", async () => {
    const acceptedBefore = accepted.length;
    const client = await dialled();
    const target = await dialled();
    await vi.waitFor(() => expect(accepted.length).toBe(acceptedBefore + 2));
    const socket = new NativeSocket(addon, client.fd, "127.0.0.1", port());
    const read = new Promise<Buffer | null>((resolve) => {
      // Caps of 0 both ways: nothing to relay, the relay ends at its first event.
      addon.start(
        client.fd,
        target.fd,
        null,
        null,
        new Float64Array(4),
        (kind) => {
          if (kind === SpliceEvent.done) socket.readSome(resolve);
        },
        new Float64Array([0, 0]),
      );
    });
    await vi.waitFor(() => expect(addon.stats().relays).toBe(0));
    for (const far of accepted.slice(acceptedBefore)) far.write("hello");
    expect((await read)?.toString()).toBe("hello");
    socket.destroy();
    addon.closeDescriptor(target.fd);
  });
});
