// The connect-time histogram the gateways report per exit and minute, and the admin console reads.

/** Upper bounds (ms) of the connect-time histogram's buckets; one more bucket holds the rest. */
export const CONNECT_MS_BOUNDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000] as const;

/** The median of a histogram (counts per bucket of CONNECT_MS_BOUNDS): interpolated inside the
 * bucket the middle attempt falls in; null without any. */
export function histogramMedian(buckets: readonly number[]): number | null {
  const total = buckets.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  const middle = total / 2;
  let below = 0;
  for (let i = 0; i < buckets.length; i++) {
    const count = buckets[i] ?? 0;
    if (count > 0 && below + count >= middle) {
      const low = i === 0 ? 0 : (CONNECT_MS_BOUNDS[i - 1] as number);
      // The open-ended last bucket is reported at its lower bound.
      const high = CONNECT_MS_BOUNDS[i] ?? low;
      return low + ((middle - below) / count) * (high - low);
    }
    below += count;
  }
  return null;
}
