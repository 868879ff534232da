/** An inclusive window of UTC days, as YYYY-MM-DD. `from` after `to` is an empty window. */
export interface DayWindow {
  from: string;
  to: string;
}

const DAY_MS = 86_400_000;

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const timeOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The last `days` UTC days, today included: the gateway files traffic under the UTC day it
 * happened (docs/product.md#gateway), so "1d" is today so far and "7d" is today and the six days before.
 */
export function lastDays(days: number, now: Date): DayWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: isoDay(today - (days - 1) * DAY_MS), to: isoDay(today) };
}

/** Lengths in days of the periods usage_domain_totals sums each domain over (migration 0030). */
export type Span = 1 | 7 | 28;

/** The periods of one span whose first day lies in [first, last], added or taken away. */
export interface SpanRange {
  span: Span;
  first: string;
  last: string;
  sign: 1 | -1;
}

// Spans are counted from a Monday, so a 7-day span is an ISO week and a 28-day one four of them.
const SPAN_EPOCH = Date.UTC(1970, 0, 5);
const FOREVER = "9999-12-31";

/** The first day of the span of `length` days holding `time`. */
function spanStart(time: number, length: Span): number {
  const index = Math.round((time - SPAN_EPOCH) / DAY_MS);
  return time - (((index % length) + length) % length) * DAY_MS;
}

/** Rows one period holds, relative to a day's: a longer period lists more of the domains. */
const READ_COST: Record<Span, number> = { 1: 1, 7: 1.5, 28: 2 };

/** What turns "everything from `coarse` on" into "everything from `fine` on": the spans of
 * [coarse, fine) taken away, or those of [fine, coarse) added. */
function between(span: Span, coarse: number, fine: number): SpanRange[] {
  if (coarse === fine) return [];
  return coarse < fine
    ? [{ span, first: isoDay(coarse), last: isoDay(fine - span * DAY_MS), sign: -1 }]
    : [{ span, first: isoDay(fine), last: isoDay(coarse - span * DAY_MS), sign: 1 }];
}

/**
 * A window as a sum and difference of span totals, for "by domain": everything from `from` on
 * is the 28-day spans from a span start K, plus or minus the weeks between K and a Monday M, plus
 * or minus the days between M and `from`; the days after `to` are then taken away. Each of M and
 * K is the span start at or before, or the next one, whichever reads fewer rows up to `to` (later
 * periods hold nothing while the window ends today, and are exact anyway if they do).
 * So a 90-day window reads at most 4 days, 2 weeks and 4 four-week spans per domain.
 */
export function spanRanges(window: DayWindow): SpanRange[] {
  const from = timeOf(window.from);
  const to = timeOf(window.to);
  if (from > to) return [];
  const after: SpanRange = { span: 1, first: isoDay(to + DAY_MS), last: FOREVER, sign: -1 };
  const cost = (ranges: SpanRange[]) =>
    ranges.reduce((sum, range) => {
      const last = Math.min(timeOf(range.last), to);
      const periods = Math.max(0, Math.floor((last - timeOf(range.first)) / (range.span * DAY_MS)) + 1);
      return sum + periods * READ_COST[range.span];
    }, 0);
  let best: SpanRange[] | null = null;
  for (const monday of around(from, 7)) {
    for (const start of around(monday, 28)) {
      const ranges = [
        { span: 28 as const, first: isoDay(start), last: FOREVER, sign: 1 as const },
        ...between(7, start, monday),
        ...between(1, monday, from),
      ];
      if (best === null || cost(ranges) < cost(best)) best = ranges;
    }
  }
  return [...best!, after];
}

/** The span start at or before `time`, and the next one. */
function around(time: number, length: Span): number[] {
  const start = spanStart(time, length);
  return [start, start + length * DAY_MS];
}
