import type net from "node:net";
import { isIPv6Address, parseIpLiteral } from "@bytetoll/egress";
import type { ClientSocket, NativeClient } from "../base/native-socket.ts";

export interface ConnectionLimitSettings {
  /** Open client connections one address (IPv6: one /64) may hold at once, tunnels included. */
  maxConnectionsPerIp: number;
  /** Open client connections one network (IPv4 /24, IPv6 /48) may hold at once. */
  maxConnectionsPerNetwork: number;
  /** Open client connections on both listeners together. */
  maxConnections: number;
}

/** The first `groups` 16-bit groups of an IPv6 address, as a prefix. */
function ipv6Prefix(parts: number[], groups: number): string {
  return `${parts
    .slice(0, groups)
    .map((part) => part.toString(16))
    .join(":")}::/${groups * 16}`;
}

/** Addresses whose keys are kept for the next connection from them (all forgotten past this). */
const KEYS_KEPT = 4096;

/** An IPv4 address as Node reports a peer's (dotted decimal, no leading zeros), bare or
 * IPv4-mapped: its three first octets and its last, read without a parser. */
const PLAIN_IPV4 =
  /^(?:::ffff:)?((?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3})(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/i;

/** Who a connection counts against (`client`: an IPv4 address, also when IPv4-mapped, or an IPv6
 * /64, the block one subscriber usually holds) and the network it also counts against
 * (`network`: an IPv4 /24, or an IPv6 /48, the block a site is usually given, so one customer of
 * a hosting provider cannot rotate through /64s). The address is read once for both. */
export function connectionKeys(remoteAddress: string | undefined): { client: string; network: string } {
  const text = remoteAddress ?? "";
  const plain = PLAIN_IPV4.exec(text);
  if (plain) return { client: `${plain[1]}${plain[2]}`, network: `${plain[1]}0/24` };
  const address = parseIpLiteral(text);
  if (!address) return { client: text, network: text };
  const v4 = !isIPv6Address(address)
    ? address
    : address.isIPv4MappedAddress()
      ? address.toIPv4Address()
      : null;
  if (v4) return { client: v4.toString(), network: `${v4.octets.slice(0, 3).join(".")}.0/24` };
  const { parts } = address as { parts: number[] };
  return { client: ipv6Prefix(parts, 4), network: ipv6Prefix(parts, 3) };
}

export const clientKey = (remoteAddress: string | undefined) => connectionKeys(remoteAddress).client;
export const networkKey = (remoteAddress: string | undefined) => connectionKeys(remoteAddress).network;

/** One open client connection as the limits see it: where it comes from, whether a request on it
 * has been admitted (a customer's), and how to cut it. */
export class ClientConnection {
  /** A request on it passed the proxy credentials and was admitted. */
  authenticated = false;
  released = false;
  readonly sockets: ClientSocket[] = [];

  constructor(
    readonly client: string,
    readonly network: string,
    /** Ends the connection at once (the TLS socket once there is one, never the TCP socket under
     * it: closing that under a live TLS socket is unsafe). */
    public cut: () => void,
  ) {}
}

/**
 * Counts open client connections per client, per network and in total, so idle or slow
 * connections cannot take every descriptor. At its own address's cap a connection is turned
 * away; at a network's cap or the total, the oldest connection that has not authenticated (of
 * that network, or anywhere) is cut to make room, so strangers' idle connections can never lock
 * out paying customers. Only when every connection in the way belongs to a customer is the new
 * one turned away. Established connections (tunnels among them) carry on.
 */
export class ConnectionLimits {
  private readonly perClient = new Map<string, number>();
  private readonly perNetwork = new Map<string, number>();
  /** Not yet authenticated, oldest first (a Set keeps insertion order). */
  private readonly strangers = new Set<ClientConnection>();
  private readonly strangersPerNetwork = new Map<string, Set<ClientConnection>>();
  /** Each counted connection by its sockets (TCP, and TLS once set up). */
  private readonly bySocket = new Map<ClientSocket, ClientConnection>();
  private total = 0;
  /** Strangers' connections cut to make room, since start. */
  evicted = 0;

  constructor(private readonly settings: ConnectionLimitSettings) {}

  /** The keys of the addresses connections came from lately: a client opens many. */
  private readonly keys = new Map<string, { client: string; network: string }>();

  private keysOf(remoteAddress: string | undefined): { client: string; network: string } {
    const address = remoteAddress ?? "";
    let keys = this.keys.get(address);
    if (!keys) {
      if (this.keys.size >= KEYS_KEPT) this.keys.clear();
      keys = connectionKeys(address);
      this.keys.set(address, keys);
    }
    return keys;
  }

  /** Counts the socket until it closes; null (nothing counted) when a limit is reached and nothing
   * can be cut. `cut` ends the connection if it has to make room later. */
  admit(socket: net.Socket | NativeClient, cut: () => void): ClientConnection | null {
    const { client, network } = this.keysOf(socket.remoteAddress);
    if ((this.perClient.get(client) ?? 0) >= this.settings.maxConnectionsPerIp) return null;
    if (
      (this.perNetwork.get(network) ?? 0) >= this.settings.maxConnectionsPerNetwork &&
      !this.evictOldest(this.strangersPerNetwork.get(network))
    )
      return null;
    if (this.total >= this.settings.maxConnections && !this.evictOldest(this.strangers)) return null;
    const connection = new ClientConnection(client, network, cut);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    this.perNetwork.set(network, (this.perNetwork.get(network) ?? 0) + 1);
    this.total += 1;
    this.strangers.add(connection);
    const ofNetwork = this.strangersPerNetwork.get(network) ?? new Set();
    ofNetwork.add(connection);
    this.strangersPerNetwork.set(network, ofNetwork);
    this.bySocket.set(socket, connection);
    connection.sockets.push(socket);
    socket.once("close", () => this.release(connection));
    return connection;
  }

  /** The TLS socket set up over a counted TCP socket: it is the one cut, and the one admission
   * sees. */
  link(secure: ClientSocket, tcp: ClientSocket): void {
    const connection = this.bySocket.get(tcp);
    if (!connection || connection.released) return;
    this.bySocket.set(secure, connection);
    connection.sockets.push(secure);
    connection.cut = () => secure.destroy();
  }

  /** A request on the connection `socket` belongs to was admitted: it is a customer's, and no
   * longer cut to make room. */
  authenticated(socket: ClientSocket): void {
    const connection = this.bySocket.get(socket);
    if (!connection || connection.authenticated) return;
    connection.authenticated = true;
    this.forgetStranger(connection);
  }

  private evictOldest(candidates: Set<ClientConnection> | undefined): boolean {
    const oldest = candidates?.values().next().value;
    if (!oldest) return false;
    this.release(oldest);
    this.evicted += 1;
    oldest.cut();
    return true;
  }

  private forgetStranger(connection: ClientConnection): void {
    this.strangers.delete(connection);
    const ofNetwork = this.strangersPerNetwork.get(connection.network);
    ofNetwork?.delete(connection);
    if (ofNetwork?.size === 0) this.strangersPerNetwork.delete(connection.network);
  }

  /** Uncounts a connection once, whether it closed or was cut to make room. */
  private release(connection: ClientConnection): void {
    if (connection.released) return;
    connection.released = true;
    this.forgetStranger(connection);
    for (const socket of connection.sockets) this.bySocket.delete(socket);
    this.total -= 1;
    decrement(this.perClient, connection.client);
    decrement(this.perNetwork, connection.network);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left === 0) counts.delete(key);
  else counts.set(key, left);
}
