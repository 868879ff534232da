import type { DayWindow } from "./repository.ts";

const DAY_MS = 86_400_000;

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The last `days` UTC days, today included: the gateway files traffic under the UTC day it
 * happened (DESIGN §3), so "1d" is today so far and "7d" is today and the six days before.
 */
export function lastDays(days: number, now: Date): DayWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { from: isoDay(today - (days - 1) * DAY_MS), to: isoDay(today) };
}
