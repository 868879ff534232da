import { REFUSAL_CODES } from "@bytetoll/egress";
import { Counter, Gauge, Histogram, Registry } from "prom-client";

/** One registry per gateway (not prom-client's global one), so several gateways in one process
 * (tests, `npm start`) never collide. */
export interface MetricSources {
  lagSeconds: () => number;
  /** Bytes metered since the last scrape, by proxy type (kept as plain numbers on the hot path). */
  takeBytes: () => { mobile: number; dc: number };
}

export function createGatewayMetrics(sources: MetricSources) {
  const registry = new Registry();
  const registers = [registry];
  new Counter({
    name: "bytetoll_gateway_bytes_total",
    help: "Metered bytes relayed between clients and targets (both directions)",
    labelNames: ["proxy_type"] as const,
    registers,
    collect() {
      const taken = sources.takeBytes();
      this.labels("mobile").inc(taken.mobile);
      this.labels("dc").inc(taken.dc);
    },
  });
  const refusals = new Counter({
    name: "bytetoll_gateway_refusals_total",
    help: "Requests refused by the gateway, by reason",
    labelNames: ["reason"] as const,
    registers,
  });
  const flushDuration = new Histogram({
    name: "bytetoll_gateway_flush_duration_seconds",
    help: "Time to commit one usage batch",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers,
  });
  const flushFailures = new Counter({
    name: "bytetoll_gateway_flush_failures_total",
    help: "Usage batches that failed to commit (they are retried)",
    registers,
  });
  const leaseOvershoots = new Counter({
    name: "bytetoll_gateway_lease_overshoots_total",
    help: "Usage batches not committed because they bill an account or sub-user past its lease plus the run-ahead bound (they stay queued)",
    registers,
  });
  const destinationRuleHits = destinationRuleCounter(registers);
  registerFlushLag(registers, sources);
  for (const reason of REFUSAL_CODES) refusals.labels(reason).inc(0);
  return {
    registry,
    ...connectionCounters(registers),
    refusals,
    flushDuration,
    flushFailures,
    leaseOvershoots,
    destinationRuleHits,
  };
}

/** A number the hot path moves by plain arithmetic; its metric reads it at each scrape. */
class Tally {
  value = 0;
  inc(by = 1): void {
    this.value += by;
  }
  dec(by = 1): void {
    this.value -= by;
  }
}

/** What every connection and tunnel counts: kept as plain numbers (a prom-client `inc` hashes
 * its labels and walks its maps on every call, five times a tunnel) and read at each scrape. */
function connectionCounters(registers: Registry[]) {
  const requestsOf = { http: new Tally(), connect: new Tally() };
  const openConnectionsOn = { http: new Tally(), https: new Tally(), socks: new Tally() };
  const openTunnels = new Tally();
  /** The requests already added to the counter (it only goes up, by what came since). */
  const counted = { http: 0, connect: 0 };
  new Counter({
    name: "bytetoll_gateway_requests_total",
    help: "Proxied plain-HTTP requests and CONNECT tunnels",
    labelNames: ["kind"] as const,
    registers,
    collect() {
      for (const kind of ["http", "connect"] as const) {
        this.labels(kind).inc(requestsOf[kind].value - counted[kind]);
        counted[kind] = requestsOf[kind].value;
      }
    },
  });
  new Gauge({
    name: "bytetoll_gateway_open_connections",
    help: "Open client connections by listener",
    labelNames: ["listener"] as const,
    registers,
    collect() {
      for (const listener of ["http", "https", "socks"] as const)
        this.labels(listener).set(openConnectionsOn[listener].value);
    },
  });
  new Gauge({
    name: "bytetoll_gateway_open_tunnels",
    help: "Open CONNECT tunnels",
    registers,
    collect() {
      this.set(openTunnels.value);
    },
  });
  return { requestsOf, openConnectionsOn, openTunnels };
}

/** Requests each destination rule matched: the one that decided, and report rules met on the way
 * (docs/product.md#destination-policy). */
function destinationRuleCounter(registers: Registry[]) {
  return new Counter({
    name: "bytetoll_gateway_destination_rule_hits_total",
    help: "Requests a destination rule matched, by rule id and action (report rules let them through)",
    labelNames: ["rule", "action"] as const,
    registers,
  });
}

/** Read from its source at each scrape rather than counted on the hot path. */
function registerFlushLag(registers: Registry[], sources: MetricSources): void {
  new Gauge({
    name: "bytetoll_gateway_flush_lag_seconds",
    help: "Age of the oldest metered byte not yet committed to the database",
    registers,
    // Summed over GATEWAY_WORKERS the lag would grow with the workers: the oldest is what counts.
    aggregator: "max",
    collect() {
      this.set(sources.lagSeconds());
    },
  });
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>;
