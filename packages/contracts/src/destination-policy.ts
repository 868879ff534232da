/**
 * Where customers' traffic may go: the operator's destination rules and a sub-user's list of
 * allowed sites, parsed and compiled once so the gateway checks a target with a few map look-ups
 * (docs/product.md#destination-policy states the order written here).
 */

export const DESTINATION_ACTIONS = ["block", "allow", "report"] as const;
export type DestinationAction = (typeof DESTINATION_ACTIONS)[number];

/** A rule as stored and as the admin API shows it. */
export interface DestinationRuleData {
  id: number;
  action: DestinationAction;
  /** "example.com" (that name only) or "*.example.com" (every name below it); null: any host. */
  domain: string | null;
  /** "25,465,587" or "1-1024" or a mix; null: any port. */
  ports: string | null;
  /** The customer (user id) the rule is for; null: everyone. */
  customer_id: string | null;
  reason: string;
}

/** A domain pattern: an exact name (or IP address) or every name below a suffix. */
export interface DomainPattern {
  kind: "exact" | "suffix";
  /** Lower-case, without the "*." and without a trailing dot. */
  name: string;
}

const LABEL = "[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?";
const NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^[0-9a-f:.]+$/;

/** Reads "example.com", "*.example.com" or an IP address; null when it is none of them. */
export function parseDomainPattern(text: string): DomainPattern | null {
  const value = text.trim().toLowerCase().replace(/\.$/, "");
  if (value.length === 0 || value.length > 253) return null;
  if (value.startsWith("*.")) {
    const name = value.slice(2);
    // A suffix needs a dot of its own: "*.com" would be every site of a top-level domain.
    return NAME.test(name) && name.includes(".") ? { kind: "suffix", name } : null;
  }
  if (IPV4.test(value) || (value.includes(":") && IPV6.test(value))) return { kind: "exact", name: value };
  return NAME.test(value) && !/^\d+$/.test(value.split(".").at(-1) ?? "")
    ? { kind: "exact", name: value }
    : null;
}

/** Inclusive port ranges. */
export type PortRanges = ReadonlyArray<readonly [number, number]>;

/** Reads "25,465,587", "1-1024" or a mix ("1-79,81-442"); null when any part is not a port
 * (1–65535) or a range whose start is above its end. */
export function parsePorts(text: string): PortRanges | null {
  const ranges: Array<[number, number]> = [];
  for (const part of text.split(",")) {
    const match = /^\s*(\d{1,5})\s*(?:-\s*(\d{1,5})\s*)?$/.exec(part);
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (from < 1 || to > 65535 || from > to) return null;
    ranges.push([from, to]);
  }
  return ranges;
}

function portsContain(ranges: PortRanges, port: number): boolean {
  for (const [from, to] of ranges) if (port >= from && port <= to) return true;
  return false;
}

/** The rule every fresh install starts with (migration 0038 seeds it): squid's safe ports, so
 * 80, 443 and 1025–65535 stay open and every other port, and 2525, is refused. */
export const DEFAULT_DESTINATION_RULE: Omit<DestinationRuleData, "id"> = {
  action: "block",
  domain: null,
  ports: "1-79,81-442,444-1024,2525",
  customer_id: null,
  reason: "Outgoing e-mail and other low ports are not allowed through the proxy",
};

interface CompiledRule {
  rule: DestinationRuleData;
  /** Its place in the reading order (lower is read first). */
  rank: number;
  ports: PortRanges | null;
}

/** One level (one customer's rules, or the global ones), indexed by domain. */
interface Level {
  exact: Map<string, CompiledRule[]>;
  suffix: Map<string, CompiledRule[]>;
  anyHost: CompiledRule[];
  /** anyHost's rules that match each port, filled as ports are asked for (at most 65,535). */
  anyHostByPort: Map<number, CompiledRule[]>;
}

export interface DestinationDecision {
  /** The rule that decided (block or allow); null: no rule matched, the target is open. */
  decided: DestinationRuleData | null;
  /** Report rules read before the decision, in order: they let the traffic through and are counted. */
  reported: DestinationRuleData[];
}

const ACTION_ORDER: Record<DestinationAction, number> = { block: 0, report: 1, allow: 2 };

/** Within one level: rules naming a domain before rules for any host, then block before report
 * before allow, then the older rule (lower id) first. */
export function compareWithinLevel(a: DestinationRuleData, b: DestinationRuleData): number {
  return (
    Number(a.domain === null) - Number(b.domain === null) ||
    ACTION_ORDER[a.action] - ACTION_ORDER[b.action] ||
    a.id - b.id
  );
}

function emptyLevel(): Level {
  return { exact: new Map(), suffix: new Map(), anyHost: [], anyHostByPort: new Map() };
}

function push(map: Map<string, CompiledRule[]>, key: string, rule: CompiledRule): void {
  const list = map.get(key);
  if (list) list.push(rule);
  else map.set(key, [rule]);
}

/** Every rule of `level` that matches host and port, in no particular order. */
function collect(level: Level, host: string, port: number, into: CompiledRule[]): void {
  const consider = (list: CompiledRule[] | undefined) => {
    if (!list) return;
    for (const compiled of list)
      if (compiled.ports === null || portsContain(compiled.ports, port)) into.push(compiled);
  };
  consider(level.exact.get(host));
  for (let dot = host.indexOf("."); dot !== -1; dot = host.indexOf(".", dot + 1))
    consider(level.suffix.get(host.slice(dot + 1)));
  if (level.anyHost.length === 0) return;
  let forPort = level.anyHostByPort.get(port);
  if (!forPort) {
    forPort = level.anyHost.filter(
      (compiled) => compiled.ports === null || portsContain(compiled.ports, port),
    );
    level.anyHostByPort.set(port, forPort);
  }
  for (const compiled of forPort) into.push(compiled);
}

/** The first block or allow of `level` matching host and port, in order; report rules met before
 * it go into `reported`. */
function readLevel(
  level: Level,
  host: string,
  port: number,
  reported: DestinationRuleData[],
): DestinationRuleData | null {
  const matched: CompiledRule[] = [];
  collect(level, host, port, matched);
  if (matched.length > 1) matched.sort((a, b) => a.rank - b.rank);
  for (const { rule } of matched) {
    if (rule.action === "report") reported.push(rule);
    else return rule;
  }
  return null;
}

/**
 * The rules compiled for look-up. `decide` reads the customer's own rules first, then the
 * global ones; within a level in compareWithinLevel's order. The first block or allow that
 * matches decides; a report rule met on the way is recorded and reading goes on.
 */
export class DestinationMatcher {
  private readonly global = emptyLevel();
  private readonly customers = new Map<string, Level>();
  readonly size: number;

  constructor(rules: readonly DestinationRuleData[]) {
    const sorted = [...rules].sort(compareWithinLevel);
    sorted.forEach((rule, rank) => {
      const ports = rule.ports === null ? null : parsePorts(rule.ports);
      const pattern = rule.domain === null ? null : parseDomainPattern(rule.domain);
      // A stored rule is validated on the way in; one that is not readable matches nothing.
      if ((rule.ports !== null && !ports) || (rule.domain !== null && !pattern)) return;
      let level = this.global;
      if (rule.customer_id !== null) {
        level = this.customers.get(rule.customer_id) ?? emptyLevel();
        this.customers.set(rule.customer_id, level);
      }
      const compiled = { rule, rank, ports };
      if (!pattern) level.anyHost.push(compiled);
      else push(pattern.kind === "exact" ? level.exact : level.suffix, pattern.name, compiled);
    });
    this.size = sorted.length;
  }

  /** `host`: lower-case name without a trailing dot, or an IP address's canonical text. */
  decide(customerId: string | null, host: string, port: number): DestinationDecision {
    const reported: DestinationRuleData[] = [];
    const customer = customerId === null ? undefined : this.customers.get(customerId);
    const decided =
      (customer && readLevel(customer, host, port, reported)) || readLevel(this.global, host, port, reported);
    return { decided: decided ?? null, reported };
  }
}

/** A sub-user's allowed sites, compiled: exact names and suffixes. */
export class AllowedDomains {
  private readonly exact = new Set<string>();
  private readonly suffixes = new Set<string>();

  constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const pattern = parseDomainPattern(entry);
      if (pattern?.kind === "exact") this.exact.add(pattern.name);
      else if (pattern) this.suffixes.add(pattern.name);
    }
  }

  allows(host: string): boolean {
    if (this.exact.has(host)) return true;
    for (let dot = host.indexOf("."); dot !== -1; dot = host.indexOf(".", dot + 1))
      if (this.suffixes.has(host.slice(dot + 1))) return true;
    return false;
  }
}
