import net, { type AddressInfo } from "node:net";

/** A stand-in SOCKS5 exit (RFC 1928 CONNECT with RFC 1929 username/password), recording the
 * targets it connected to. */
export interface SocksProxy {
  url: string;
  targets: string[];
  close(): Promise<void>;
}

export async function startSocksProxy(username: string, password: string): Promise<SocksProxy> {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => {});
    let buffer = Buffer.alloc(0);
    let stage: "greeting" | "auth" | "request" = "greeting";
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === "greeting") {
        if (buffer.length < 2 || buffer.length < 2 + (buffer[1] ?? 0)) return;
        buffer = buffer.subarray(2 + (buffer[1] ?? 0));
        client.write(Buffer.from([5, 2]));
        stage = "auth";
      }
      if (stage === "auth") {
        const ulen = buffer[1] ?? 0;
        const plen = buffer[2 + ulen];
        if (plen === undefined || buffer.length < 3 + ulen + plen) return;
        const user = buffer.subarray(2, 2 + ulen).toString();
        const pass = buffer.subarray(3 + ulen, 3 + ulen + plen).toString();
        buffer = buffer.subarray(3 + ulen + plen);
        const ok = user === username && pass === password;
        client.write(Buffer.from([1, ok ? 0 : 1]));
        if (!ok) return void client.end();
        stage = "request";
      }
      if (stage === "request") {
        if (buffer.length < 5) return;
        const atyp = buffer[3];
        const addressLength = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + (buffer[4] ?? 0);
        if (buffer.length < 4 + addressLength + 2) return;
        const raw = buffer.subarray(4, 4 + addressLength);
        const host =
          atyp === 1
            ? [...raw].join(".")
            : atyp === 4
              ? (raw.toString("hex").match(/.{4}/g) ?? []).join(":")
              : raw.subarray(1).toString();
        const port = buffer.readUInt16BE(4 + addressLength);
        const rest = buffer.subarray(4 + addressLength + 2);
        client.removeListener("data", onData);
        targets.push(`${host}:${port}`);
        const target = net.connect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          if (rest.length) target.write(rest);
          target.pipe(client);
          client.pipe(target);
        });
        target.on("error", () => client.destroy());
        client.on("close", () => target.destroy());
      }
    };
    client.on("data", onData);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `socks5://${username}:${password}@127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
