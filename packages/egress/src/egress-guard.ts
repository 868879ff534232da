import { lookup } from "node:dns/promises";
import { networkInterfaces } from "node:os";
import {
  type Cidr,
  cidrContains,
  type IpAddress,
  isIPv6Address,
  parseCidr,
  parseIpLiteral,
} from "./ip-address.ts";
import { Refusal } from "./refusal.ts";

/** How the guard resolves a name; tests inject one so nothing reaches the system resolver. */
export type ResolveHost = (hostname: string) => Promise<string[]>;

/** One port on one range, opened although the range is private (e.g. the API's own port on
 * loopback): unlike EGRESS_ALLOW, the other services on those addresses stay unreachable. */
export interface EgressAllowTarget {
  cidr: string;
  port: number;
}

/** Ranges no customer may reach through the gateway (smokescreen's default deny list). */
export const DENIED: Array<[string, string]> = [
  ["0.0.0.0/8", "unspecified"],
  ["10.0.0.0/8", "private"],
  ["100.64.0.0/10", "carrier-grade NAT"],
  ["127.0.0.0/8", "loopback"],
  ["169.254.0.0/16", "link-local"],
  ["172.16.0.0/12", "private"],
  ["192.0.0.0/24", "IETF protocol assignments"],
  ["192.0.2.0/24", "documentation"],
  ["192.88.99.0/24", "6to4 relay"],
  ["192.168.0.0/16", "private"],
  ["198.18.0.0/15", "benchmarking"],
  ["198.51.100.0/24", "documentation"],
  ["203.0.113.0/24", "documentation"],
  ["224.0.0.0/4", "multicast"],
  ["240.0.0.0/4", "reserved"],
  ["::/128", "unspecified"],
  ["::1/128", "loopback"],
  ["::ffff:0:0/96", "IPv4-mapped"],
  ["::/96", "IPv4-compatible"],
  ["64:ff9b::/96", "NAT64"],
  ["64:ff9b:1::/48", "NAT64"],
  ["100::/64", "discard"],
  ["2001::/32", "Teredo"],
  ["2001:db8::/32", "documentation"],
  ["2002::/16", "6to4"],
  ["fc00::/7", "unique local"],
  ["fe80::/10", "link-local"],
  ["fec0::/10", "site-local"],
  ["ff00::/8", "multicast"],
];

const deniedRanges: Array<[Cidr, string]> = DENIED.map(([text, why]) => [parseCidr(text) as Cidr, why]);
/** Addresses that reach this host whatever its interfaces: a connect to 0.0.0.0 or :: lands on
 * loopback. */
const loopback = ["127.0.0.0/8", "::1/128", "0.0.0.0/8", "::/128"].map((text) => parseCidr(text) as Cidr);
/** How long the list of this host's interface addresses is trusted before it is read again (an
 * address added by DHCP or a new interface must not stay open). */
const LOCAL_ADDRESSES_TTL_MS = 5_000;
/** The host Test Connection asks for by default: the gateway answers it itself with the address
 * its traffic leaves from (ip-info-answer.ts), so no customer-reachable service has to be opened
 * for it. `.invalid` never resolves (RFC 6761), so no real site is shadowed. */
export const IP_INFO_HOST = "ipinfo.bytetoll.invalid";
/** What a vetted request for IP_INFO_HOST dials: not an address, the gateway's own answer. */
export const IP_INFO_ADDRESS = "gateway-ip-info";

/** How many hosts the guard remembers reading (as an IP literal or not); beyond it the memory
 * starts over, so a client sending endless distinct hosts cannot grow it. */
const MAX_REMEMBERED_HOSTS = 10_000;

/** A host read as an IP literal, with its canonical text and what the guard reads of the address
 * alone (whatever the port), worked out once per remembered host. */
interface Literal {
  address: IpAddress;
  text: string;
  /** The address the kernel dials (asDialled), as text: compared with this host's addresses. */
  dialledText: string;
  /** In a range that reaches this host whatever its interfaces (loopback, unspecified). */
  loopback: boolean;
  /** Opened on every port (EGRESS_ALLOW). */
  allowed: boolean;
  /** Why the deny list refuses it; null when it does not. */
  denied: string | null;
}

export interface VettedTarget {
  /** The address to dial: never re-resolved, so DNS cannot change between check and dial. */
  address: string;
  port: number;
  /** What usage is attributed to: lower-case host name, or the canonical IP text. */
  domain: string;
}

export interface EgressGuardOptions {
  /** Ranges opened on every port. */
  allow: string[];
  /** Ranges opened on one port each, e.g. the host process's own API on loopback. */
  allowTargets?: EgressAllowTarget[] | undefined;
  resolveHost?: ResolveHost | undefined;
  /** The ports this process listens on right now: the gateway's own and its host's (the API's
   * under `npm start`). A connection to one of them on any address of this host is always
   * refused. */
  ownPorts: () => number[];
}

const systemResolve: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** The canonical texts of this host's own addresses (an IPv4 text never equals an IPv6 one). */
function localAddresses(): Set<string> {
  const found = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) {
      const parsed = parseIpLiteral(entry.address);
      if (parsed) found.add(parsed.toString());
    }
  }
  return found;
}

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:127.0.0.1) connects to, as the kernel
 * dials it; any other address as it is. */
function asDialled(address: IpAddress): IpAddress {
  return isIPv6Address(address) && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

/** A host name lower-cased without its trailing dots; anything that is no host name is refused. */
function hostName(host: string): string {
  const domain = host.trim().toLowerCase().replace(/\.+$/, "");
  if (!/^[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/.test(domain) || domain.length > 253) {
    throw new Refusal("bad_request", `"${host}" is not a valid host name`);
  }
  return domain;
}

/** Resolve, classify every address, hand back one vetted address to dial. */
export class EgressGuard {
  private readonly allow: Cidr[];
  private readonly allowTargets: Array<{ cidr: Cidr; port: number }>;
  private readonly resolveHost: ResolveHost;
  private own: Set<string> = localAddresses();
  private ownReadAt = Date.now();
  /** Hosts already read, as IP literals or null (a DNS name): reading a literal with ipaddr.js,
   * printing it again and matching it against the ranges cost more than the rest of a plain
   * request's check. */
  private readonly literals = new Map<string, Literal | null>();

  constructor(private readonly options: EgressGuardOptions) {
    this.allow = options.allow.map((text) => parseCidr(text)).filter((c): c is Cidr => c !== null);
    this.allowTargets = (options.allowTargets ?? []).flatMap(({ cidr, port }) => {
      const parsed = parseCidr(cidr);
      return parsed ? [{ cidr: parsed, port }] : [];
    });
    this.resolveHost = options.resolveHost ?? systemResolve;
  }

  /** Why an address may not be dialled, or null when it may. */
  classify(address: IpAddress, port: number): string | null {
    return this.classifyLiteral(this.read(address), port);
  }

  /** What the guard reads of an address whatever the port: the ranges it falls in. */
  private read(address: IpAddress): Literal {
    const dialled = asDialled(address);
    let denied: string | null = null;
    for (const [cidr, why] of deniedRanges) {
      if (!cidrContains(cidr, address)) continue;
      denied = why;
      break;
    }
    return {
      address,
      text: address.toString(),
      dialledText: dialled.toString(),
      loopback: loopback.some((cidr) => cidrContains(cidr, dialled)),
      allowed: this.allow.some((cidr) => cidrContains(cidr, address)),
      denied,
    };
  }

  /** Whether a connection to the address ends on this host: loopback, unspecified, or one of its
   * interfaces' addresses (read again every few seconds). */
  private isOwnHost(literal: Literal): boolean {
    if (Date.now() - this.ownReadAt > LOCAL_ADDRESSES_TTL_MS) {
      this.own = localAddresses();
      this.ownReadAt = Date.now();
    }
    return this.own.has(literal.dialledText) || literal.loopback;
  }

  private classifyLiteral(literal: Literal, port: number): string | null {
    const isOwnHost = this.isOwnHost(literal);
    // Before any allowance: no EGRESS_ALLOW or EGRESS_ALLOW_TARGETS opens a port of this process.
    if (isOwnHost && this.options.ownPorts().includes(port)) return "the gateway itself";
    if (literal.allowed) return null;
    // Matched on address AND port: opening one loopback service must not open the others.
    const { address } = literal;
    if (this.allowTargets.some((target) => target.port === port && cidrContains(target.cidr, address)))
      return null;
    if (literal.denied) return literal.denied;
    if (isOwnHost) return "the gateway itself";
    return null;
  }

  async vet(host: string, port: number): Promise<VettedTarget> {
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new Refusal("destination_forbidden", `Port ${port} is not allowed`);
    }
    const literal = this.literal(host);
    if (literal) {
      const why = this.classifyLiteral(literal, port);
      const { text } = literal;
      if (why) throw new Refusal("destination_forbidden", `Destination ${text} is ${why}`);
      return { address: text, port, domain: text };
    }
    const domain = hostName(host);
    if (domain === IP_INFO_HOST && port === 80) return { address: IP_INFO_ADDRESS, port, domain };
    let resolved: string[];
    try {
      resolved = await this.resolveHost(domain);
    } catch {
      throw new Refusal("dial_failed", `Could not resolve ${domain}`);
    }
    const addresses = resolved.map((text) => parseIpLiteral(text)).filter((a): a is IpAddress => a !== null);
    if (addresses.length === 0) throw new Refusal("dial_failed", `Could not resolve ${domain}`);
    // Every address is checked, not just the first: a name mixing public and private answers is
    // a rebinding attempt as far as we are concerned.
    for (const address of addresses) {
      const why = this.classify(address, port);
      if (why)
        throw new Refusal("destination_forbidden", `Destination ${domain} resolves to a ${why} address`);
    }
    return { address: (addresses[0] as IpAddress).toString(), port, domain };
  }

  /** The target as destination rules name it, read without any DNS look-up: an IP literal's
   * canonical text, or the lower-case host name without trailing dots. */
  nameOf(host: string): string {
    return this.literal(host)?.text ?? hostName(host);
  }

  private literal(host: string): Literal | null {
    let literal = this.literals.get(host);
    if (literal === undefined) {
      const address = parseIpLiteral(host);
      literal = address ? this.read(address) : null;
      if (this.literals.size >= MAX_REMEMBERED_HOSTS) this.literals.clear();
      this.literals.set(host, literal);
    }
    return literal;
  }
}
