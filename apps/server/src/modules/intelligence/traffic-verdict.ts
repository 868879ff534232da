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
  /** ...when it is this much above mobile's to the domain, and above the rest of the datacenter pool's. */
  margin: number;
}

const rate = (tally: Tally, min: number) =>
  tally.connections < min ? 0 : tally.failures / tally.connections;

/**
 * The signal that blocks a domain from gateway evidence, or null. Datacenter failures must stand
 * out against mobile traffic to the same domain (the site is not simply down) and against
 * datacenter traffic to other domains (the pool is not down): only then is it the site refusing
 * datacenter exits.
 */
export function trafficSignal(
  domain: { dc: Tally; mobile: Tally },
  restOfPool: Tally,
  thresholds: TrafficThresholds,
  minutes: number,
): string | null {
  const { dc, mobile } = domain;
  if (dc.connections < thresholds.minConnections) return null;
  const dcRate = dc.failures / dc.connections;
  const baseline = Math.max(rate(mobile, 1), rate(restOfPool, thresholds.minConnections));
  if (dcRate < thresholds.failureRate || dcRate < baseline + thresholds.margin) return null;
  return (
    `gateway: ${dc.failures} of ${dc.connections} datacenter connections failed in ${minutes} min ` +
    `(mobile ${mobile.failures} of ${mobile.connections}, other datacenter traffic ` +
    `${restOfPool.failures} of ${restOfPool.connections})`
  );
}
