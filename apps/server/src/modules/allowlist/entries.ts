import { ALLOWLIST_WIDEST_IPV4, ALLOWLIST_WIDEST_IPV6 } from "@bytetoll/contracts";
import { parseCidr, parseTypedCidr } from "@bytetoll/egress";
import ipaddr from "ipaddr.js";
import { AppError } from "../../errors.ts";

/** One allowlist entry, normalised: the network address and prefix length. */
export interface AllowlistEntry {
  text: string;
  address: ipaddr.IPv4 | ipaddr.IPv6;
  prefix: number;
}

const bad = (message: string) => new AppError(400, message, "invalid_allowlist");

/** `203.0.113.7`, `2001:db8::/48`, … → the entry as stored (host bits cleared); a 400 naming the
 * entry for anything else: an IPv4 address in any form but its plain dotted quad (the gateway's own
 * parser says which forms those are), or a range wider than /24 (IPv4) or /48 (IPv6). */
export function parseEntry(text: string): AllowlistEntry {
  const typed = parseTypedCidr(text);
  if (!typed) {
    throw bad(
      parseCidr(text)
        ? `'${text}' is ambiguous: write an IPv4 address as four decimal numbers without leading zeros`
        : `'${text}' is not an IPv4 or IPv6 address or a CIDR range`,
    );
  }
  let [address, prefix] = typed;
  // An IPv4-mapped IPv6 address is the IPv4 address a dual-stack socket reports.
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix = Math.max(0, prefix - 96);
  }
  const widest = address.kind() === "ipv4" ? ALLOWLIST_WIDEST_IPV4 : ALLOWLIST_WIDEST_IPV6;
  if (prefix < widest) throw bad(`'${text}' is too wide: ranges may be at most /${widest}`);
  const network = ipaddr.fromByteArray(
    address
      .toByteArray()
      .map((byte, i) => byte & (0xff << Math.max(0, Math.min(8, (i + 1) * 8 - prefix))) & 0xff),
  );
  const single = prefix === (address.kind() === "ipv4" ? 32 : 128);
  return { text: single ? network.toString() : `${network.toString()}/${prefix}`, address: network, prefix };
}

/** Two entries of one list that overlap are a mistake: a 400 naming both. */
export function checkNoOverlap(entries: readonly AllowlistEntry[]): void {
  for (let i = 0; i < entries.length; i++) {
    for (let j = i + 1; j < entries.length; j++) {
      const a = entries[i] as AllowlistEntry;
      const b = entries[j] as AllowlistEntry;
      if (a.address.kind() !== b.address.kind()) continue;
      const narrower = a.prefix >= b.prefix ? a : b;
      const wider = narrower === a ? b : a;
      if (narrower.address.match(wider.address, wider.prefix)) {
        throw bad(`'${a.text}' and '${b.text}' overlap: list each address once`);
      }
    }
  }
}
