import { isIPv6 } from "node:net";

/** An IP address as one integer, so ranges of both families are compared the same way. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
  /** Canonical text: dotted quad, or compressed lower-case IPv6 without brackets. */
  text: string;
}

export interface Cidr {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

/** One inet_aton part: decimal, 0x hex or 0-prefixed octal, as C resolvers (and so attackers)
 * read them. Anything else means "not an IPv4 literal". */
function parseV4Part(part: string): number | null {
  if (/^0x[0-9a-f]+$/i.test(part)) return Number.parseInt(part.slice(2), 16);
  if (/^0[0-7]*$/.test(part)) return Number.parseInt(part, 8);
  if (/^[1-9][0-9]*$/.test(part)) return Number(part);
  return null;
}

/** IPv4 in every notation inet_aton accepts: 127.0.0.1, 2130706433, 0x7f000001, 0177.0.0.1,
 * 127.1, 127.0.1, and mixes of them. Returns the 32-bit value or null. */
export function parseIPv4Loose(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    const value = parseV4Part(part);
    if (value === null || !Number.isSafeInteger(value)) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  // Leading parts are one byte each; the last part fills the bytes that remain.
  if (values.some((v) => v > 255)) return null;
  const lastBits = 8 * (4 - values.length);
  if (last >= 2 ** lastBits) return null;
  let result = 0;
  for (const v of values) result = result * 256 + v;
  return result * 2 ** lastBits + last;
}

function formatIPv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join(".");
}

/** Strict RFC 4291 text (validated by node:net) → 128-bit value. */
function parseIPv6(text: string): bigint | null {
  if (!isIPv6(text)) return null;
  let body = text;
  const lastColon = body.lastIndexOf(":");
  const lastPart = body.slice(lastColon + 1);
  if (lastPart.includes(".")) {
    // An embedded dotted quad (::ffff:1.2.3.4) becomes its two hex groups.
    const [a = 0, b = 0, c = 0, d = 0] = lastPart.split(".").map(Number);
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [headText, restText] = body.split("::") as [string, string | undefined];
  const toGroups = (s: string) => (s === "" ? [] : s.split(":").map((g) => Number.parseInt(g, 16)));
  const head = toGroups(headText);
  const rest = restText === undefined ? [] : toGroups(restText);
  const missing = restText === undefined ? 0 : 8 - head.length - rest.length;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...rest];
  if (groups.length !== 8) return null;
  let value = 0n;
  for (const group of groups) value = (value << 16n) | BigInt(group);
  return value;
}

function formatIPv6(text: string): string {
  // WHATWG URL serialises IPv6 hosts canonically (RFC 5952 compression, lower case).
  return new URL(`http://[${text}]/`).hostname.slice(1, -1);
}

/** Reads a host as an IP literal after stripping brackets, an IPv6 zone and trailing dots;
 * returns null for a DNS name. */
export function parseIpLiteral(host: string): IpAddress | null {
  let text = host.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  else text = text.replace(/\.+$/, "");
  if (text.includes(":")) {
    const withoutZone = text.split("%")[0] as string;
    const value = parseIPv6(withoutZone);
    return value === null ? null : { family: 6, value, text: formatIPv6(withoutZone) };
  }
  const v4 = parseIPv4Loose(text);
  return v4 === null ? null : { family: 4, value: BigInt(v4), text: formatIPv4(v4) };
}

export function parseCidr(text: string): Cidr | null {
  const [addressText, prefixText] = text.trim().split("/") as [string, string | undefined];
  const address = parseIpLiteral(addressText);
  if (!address) return null;
  const bits = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits) return null;
  const shift = BigInt(bits - prefix);
  return { family: address.family, base: (address.value >> shift) << shift, prefix };
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
  if (cidr.family !== address.family) return false;
  const shift = BigInt((cidr.family === 4 ? 32 : 128) - cidr.prefix);
  return address.value >> shift === cidr.base >> shift;
}
