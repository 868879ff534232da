import { spliceAddon } from "@bytetoll/splice";

/**
 * `BENCH_FLOOR=1` in bench:tunnels: the least a CONNECT tunnel can cost on the gateway's own
 * native parts — the splice addon's listener, connect and relay, driven by a few lines of
 * JavaScript that check nothing, bill nothing and count nothing. Not a proxy anyone should run:
 * a reference measured in the same rounds, so the gateway's CPU per tunnel splits into what the
 * kernel and the addon cost (this subject) and what the gateway's own JavaScript adds on top
 * (admission, routing, metering, outcomes).
 */
const addon = spliceAddon;
if (!addon?.listen) throw new Error("the floor needs the splice addon with its listener");
const ESTABLISHED = Buffer.from("HTTP/1.1 200 Connection Established\r\n\r\n", "latin1");
const CONNECT_LINE = /^CONNECT (\d{1,3}(?:\.\d{1,3}){3}):(\d{1,5}) HTTP\/1\.[01]\r\n/;

function serve(fd: number, head: Buffer): void {
  const request = CONNECT_LINE.exec(head.toString("latin1"));
  if (!request) {
    addon?.closeDescriptor(fd);
    return;
  }
  const dial = addon?.connect(request[1] as string, Number(request[2]), (code, targetFd) => {
    if (code !== undefined) {
      addon.closeDescriptor(fd);
      return;
    }
    addon.start(fd, targetFd, null, ESTABLISHED, new Float64Array(4), (kind) => {
      if (kind < 2) return; // progress and half-closes
      addon.closeDescriptor(fd);
      addon.closeDescriptor(targetFd);
    });
  });
  if (typeof dial === "string") addon?.closeDescriptor(fd);
}

addon.setReadHandler((fd, bytes) => {
  if (bytes && bytes.length > 0) serve(fd, bytes);
  else addon.closeDescriptor(fd);
});
const listener = addon.listen("127.0.0.1", 0, 511, (fd, _address, _port, head) => {
  if (fd < 0) return;
  if (head) serve(fd, head);
  else addon.readSome(fd);
});
if (typeof listener === "string") throw new Error(`the floor cannot listen: ${listener}`);
process.send?.({ type: "ready", port: addon.listenerPort(listener) });
process.on("disconnect", () => process.exit(0));
