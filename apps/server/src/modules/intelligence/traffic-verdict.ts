/** Connections and failures over the traffic window. */
export interface Tally {
  connections: number;
  failures: number;
}

export interface TrafficThresholds {
  /** Datacenter connections to the domain needed before judging it. */
  minConnections: number;
  /** Datacenter failure share that can block a domain... */
  failureRate: number;
  /** ...when it is this much above mobile's to the domain, and above the rest of the datacenter pool's... */
  margin: number;
  /** ...and at least this many accounts saw datacenter failures... */
  minAccounts: number;
  /** ...none of them more than this share of the failures. */
  maxAccountShare: number;
}

/** Whose the datacenter failures were: accounts that had any, and the most one account had. */
export interface Attribution {
  accounts: number;
  topAccountFailures: number;
}

const rate = (tally: Tally, min: number) =>
  tally.connections < min ? 0 : tally.failures / tally.connections;

/**
 * The reason to probe a domain again from gateway evidence, or null. Datacenter failures must
 * stand out against mobile traffic to the same domain (the site is not simply down) and against
 * datacenter traffic to other domains (the pool is not down), and come from several accounts with
 * none dominating (one customer cannot make a site look blocked for everyone). The text is for the
 * operator's log: it holds every customer's figures, so it is never shown to a customer.
 */
export function trafficSignal(
  domain: { dc: Tally; mobile: Tally; attribution: Attribution },
  restOfPool: Tally,
  thresholds: TrafficThresholds,
  minutes: number,
): string | null {
  const { dc, mobile, attribution } = domain;
  if (dc.connections < thresholds.minConnections || dc.failures === 0) return null;
  if (attribution.accounts < thresholds.minAccounts) return null;
  if (attribution.topAccountFailures > thresholds.maxAccountShare * dc.failures) return null;
  const dcRate = dc.failures / dc.connections;
  const baseline = Math.max(rate(mobile, 1), rate(restOfPool, thresholds.minConnections));
  if (dcRate < thresholds.failureRate || dcRate < baseline + thresholds.margin) return null;
  return (
    `gateway: ${dc.failures} of ${dc.connections} datacenter connections failed in ${minutes} min ` +
    `(mobile ${mobile.failures} of ${mobile.connections}, other datacenter traffic ` +
    `${restOfPool.failures} of ${restOfPool.connections}; ${attribution.accounts} accounts, ` +
    `at most ${attribution.topAccountFailures} failures from one)`
  );
}
