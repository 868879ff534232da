import { useEffect, useState } from "react";

/** Milliseconds until `deadline` (ISO), 0 once it has passed; updated every second until then. */
export function useTimeLeft(deadline: string): number {
  const end = Date.parse(deadline);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!(end > Date.now())) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= end) clearInterval(timer);
    }, 1_000);
    return () => clearInterval(timer);
  }, [end]);
  return Number.isNaN(end) ? 0 : Math.max(0, end - now);
}

/** "59:07" under an hour, "1:02:03" above; whole seconds, rounded up so 0:00 means the end. */
export function formatTimeLeft(ms: number): string {
  const total = Math.ceil(ms / 1_000);
  const hours = Math.floor(total / 3_600);
  const minutes = Math.floor((total % 3_600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}
