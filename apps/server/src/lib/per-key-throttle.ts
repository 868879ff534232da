/**
 * Runs `task(key)` at most once per `intervalMs` for each key: at once when the key has been
 * quiet, otherwise once at the end of the interval for all the calls made in between (so the last
 * state is always handled). Tasks of one key never overlap.
 */
export function createPerKeyThrottle(intervalMs: number, task: (key: string) => Promise<void>) {
  const lastRun = new Map<string, number>();
  const scheduled = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  let stopped = false;

  function run(key: string): void {
    scheduled.delete(key);
    if (stopped) return;
    lastRun.set(key, Date.now());
    const done = task(key).finally(() => {
      running.delete(key);
      // Forget quiet keys once their interval is over, so the map stays as small as the traffic.
      setTimeout(() => {
        if (!scheduled.has(key) && !running.has(key) && Date.now() - (lastRun.get(key) ?? 0) >= intervalMs)
          lastRun.delete(key);
      }, intervalMs).unref();
    });
    running.set(key, done);
  }

  return {
    trigger(key: string): void {
      if (stopped || scheduled.has(key)) return;
      const wait = Math.max(0, (lastRun.get(key) ?? -Infinity) + intervalMs - Date.now());
      const inFlight = running.get(key);
      if (wait === 0 && !inFlight) {
        run(key);
        return;
      }
      const timer = setTimeout(() => {
        const current = running.get(key);
        if (current) void current.then(() => run(key));
        else run(key);
      }, wait);
      scheduled.set(key, timer);
    },
    /** Cancels what is scheduled and waits for what runs. */
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of scheduled.values()) clearTimeout(timer);
      scheduled.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
