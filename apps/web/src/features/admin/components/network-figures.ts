import type { GatewayInstance } from "@bytetoll/contracts";

const UNITS = ["B", "KB", "MB", "GB", "TB"] as const;

/** Bytes in decimal units, as the product counts GB: "1.5 MB", "0 B". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const rounded = unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${UNITS[unit]}`;
}

export const formatRate = (bytesPerSecond: number) => `${formatBytes(bytesPerSecond)}/s`;

/** "0.4 s", "12 s", "3 min". */
export function formatLag(seconds: number): string {
  if (seconds < 10) return `${Math.round(seconds * 10) / 10} s`;
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 60)} min`;
}

export function formatPercent(ratio: number | null): string {
  return ratio === null ? "—" : `${Math.round(ratio * 1000) / 10}%`;
}

/** The live instances added up: what the whole network is doing right now. */
export function networkTotals(instances: readonly GatewayInstance[]) {
  const refusals: Record<string, number> = {};
  for (const instance of instances)
    for (const [reason, count] of Object.entries(instance.refusals))
      refusals[reason] = (refusals[reason] ?? 0) + count;
  return {
    instances: instances.length,
    connections: instances.reduce((sum, instance) => sum + instance.live_connections, 0),
    bytesPerSecond: instances.reduce((sum, instance) => sum + instance.bytes_per_second, 0),
    worstFlushLag: instances.reduce((worst, instance) => Math.max(worst, instance.flush_lag_seconds), 0),
    refusals: Object.entries(refusals).sort((a, b) => b[1] - a[1]),
  };
}
