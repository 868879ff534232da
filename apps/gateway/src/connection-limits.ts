import type net from "node:net";
import { isIPv6Address, parseIpLiteral } from "./ip-address.ts";

export interface ConnectionLimitSettings {
  /** Open client connections one address (IPv6: one /64) may hold at once, tunnels included. */
  maxConnectionsPerIp: number;
  /** Open client connections on both listeners together. */
  maxConnections: number;
}

/** Who a connection counts against: an IPv4 address (also when IPv4-mapped), or an IPv6 /64,
 * the block one subscriber usually holds. */
export function clientKey(remoteAddress: string | undefined): string {
  const address = parseIpLiteral(remoteAddress ?? "");
  if (!address) return remoteAddress ?? "";
  if (!isIPv6Address(address)) return address.toString();
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${address.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

/**
 * Counts open client connections per client and in total, so idle or slow connections from one
 * place cannot take every descriptor: a connection over either limit is turned away at accept,
 * while those already open (established tunnels among them) carry on.
 */
export class ConnectionLimits {
  private readonly perClient = new Map<string, number>();
  private total = 0;

  constructor(private readonly settings: ConnectionLimitSettings) {}

  /** Counts the socket until it closes; false (nothing counted) when a limit is reached. */
  admit(socket: net.Socket): boolean {
    const key = clientKey(socket.remoteAddress);
    const held = this.perClient.get(key) ?? 0;
    if (held >= this.settings.maxConnectionsPerIp || this.total >= this.settings.maxConnections) return false;
    this.perClient.set(key, held + 1);
    this.total += 1;
    socket.once("close", () => {
      this.total -= 1;
      const left = (this.perClient.get(key) ?? 1) - 1;
      if (left === 0) this.perClient.delete(key);
      else this.perClient.set(key, left);
    });
    return true;
  }
}
