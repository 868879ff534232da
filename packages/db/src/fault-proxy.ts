import net, { type AddressInfo } from "node:net";

/**
 * A TCP forwarder that tests put between a program and PostgreSQL or Redis to make that service
 * "go away" and "come back" without touching the real server, which other tests share.
 * `cut()` destroys every forwarded connection and refuses new ones (as a stopped server would);
 * `restore()` accepts again.
 */
export interface FaultProxy {
  readonly port: number;
  /** `url` with its host and port replaced by this proxy's. */
  urlFor(url: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const live = new Set<net.Socket>();
  let refusing = false;
  const server = net.createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    live.add(client);
    live.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      live.delete(client);
      live.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = "127.0.0.1";
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      refusing = true;
      for (const socket of live) socket.destroy();
      live.clear();
    },
    restore() {
      refusing = false;
    },
    close() {
      refusing = true;
      for (const socket of live) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
