import { isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";

/** A parsed address; `toString()` is its canonical text (dotted quad, or RFC 5952 IPv6). */
export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** An address and a prefix length, as ipaddr.js matches them. */
export type Cidr = [IpAddress, number];

/** A host as a client sends it, reduced to the address text: trimmed, lower case, without
 * brackets, or without the trailing dots of a fully qualified name. */
function addressText(host: string): string {
  const text = host.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) return text.slice(1, -1);
  return text.replace(/\.+$/, "");
}

/** Strict RFC 4291 text only: node:net decides what is valid, since ipaddr.js alone would also
 * read `::ffff:0177.0.0.1` (as decimal). The WHATWG URL serialiser rewrites an embedded dotted
 * quad as hex groups first, because ipaddr.js reads `::1.2.3.4` as IPv4-mapped, not
 * IPv4-compatible. */
function parseIPv6(text: string): ipaddr.IPv6 | null {
  if (!isIPv6(text)) return null;
  return ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
}

/** Reads a host as an IP literal, or returns null for a DNS name. IPv4 is read in every notation
 * inet_aton accepts (127.0.0.1, 2130706433, 0x7f000001, 0177.0.0.1, 127.1 and mixes of them),
 * because that is how resolvers, and so attackers, read it. An IPv6 zone is dropped. */
export function parseIpLiteral(host: string): IpAddress | null {
  const text = addressText(host);
  if (text.includes(":")) return parseIPv6(text.split("%")[0] as string);
  return ipaddr.IPv4.isValid(text) ? ipaddr.IPv4.parse(text) : null;
}

/** An address a person typed into a list (an allowlist, a filter): read as parseIpLiteral reads it,
 * but an IPv4 address only in its one plain form, four decimal numbers without leading zeros. Any
 * other form (`127.0.0.030`, `0x7f.1`, `127.1`, `2130706433`) is ambiguous — resolvers read a
 * leading zero as octal, people as decimal — so it is refused rather than stored as what we guess. */
export function parseTypedAddress(text: string): IpAddress | null {
  const address = parseIpLiteral(text);
  if (address && !isIPv6Address(address) && address.toString() !== text.trim()) return null;
  return address;
}

/** `address/prefix`, or a bare address as a range of one; the address in any form
 * parseIpLiteral reads (or `readAddress` accepts), IPv6 also in brackets. */
export function parseCidr(text: string, readAddress = parseIpLiteral): Cidr | null {
  const [addressPart = "", prefixText, ...rest] = text.trim().split("/");
  const address = readAddress(addressPart);
  if (!address || rest.length > 0) return null;
  const bits = isIPv6Address(address) ? 128 : 32;
  if (prefixText === undefined) return [address, bits];
  const prefix = Number(prefixText);
  return /^\d{1,3}$/.test(prefixText) && prefix <= bits ? [address, prefix] : null;
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  return cidr[0].kind() === address.kind() && address.match(cidr);
}

export function isIPv6Address(address: IpAddress): address is ipaddr.IPv6 {
  return address.kind() === "ipv6";
}

/** A range a person typed: parseCidr with the address read by parseTypedAddress. */
export const parseTypedCidr = (text: string): Cidr | null => parseCidr(text, parseTypedAddress);
