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

/** A window cut into whole ISO weeks (Monday–Sunday) and the loose days at either end. */
export interface WeekSplit {
  /** Monday of the first and of the last whole week; an empty window when there is none. */
  weeks: DayWindow;
  head: DayWindow;
  tail: DayWindow;
}

const EMPTY: DayWindow = { from: "9999-12-31", to: "0001-01-01" };

export function splitIntoWeeks(window: DayWindow): WeekSplit {
  const from = timeOf(window.from);
  const to = timeOf(window.to);
  // getUTCDay: Sunday 0 … Saturday 6.
  const firstMonday = from + ((8 - new Date(from).getUTCDay()) % 7) * DAY_MS;
  const lastSunday = to - (new Date(to).getUTCDay() % 7) * DAY_MS;
  const lastMonday = lastSunday - 6 * DAY_MS;
  if (firstMonday > lastMonday) return { weeks: EMPTY, head: window, tail: EMPTY };
  return {
    weeks: { from: isoDay(firstMonday), to: isoDay(lastMonday) },
    head: { from: window.from, to: isoDay(firstMonday - DAY_MS) },
    tail: { from: isoDay(lastSunday + DAY_MS), to: window.to },
  };
}
