import type { Db, Tx } from "./client.ts";

/** What a transaction opened by `inTransaction` will send once it has committed. */
const pending = new WeakMap<object, Array<() => void>>();

/**
 * Runs `work` in one transaction and, only once its COMMIT has succeeded, sends what it queued
 * with `afterCommit` — in the order queued, each once. A transaction that rolls back (an error,
 * a refused constraint) sends nothing: no page shows a state the database never kept.
 */
export async function inTransaction<T>(
  db: Pick<Db, "transaction">,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const sends: Array<() => void> = [];
  const result = await db.transaction((tx) => {
    pending.set(tx, sends);
    return work(tx);
  });
  for (const send of sends) {
    try {
      send();
    } catch {
      // A listener that throws must not turn a committed change into a failed request.
    }
  }
  return result;
}

/**
 * Queues `send` until `tx` commits. `tx` must have been opened by `inTransaction` above: an event
 * raised where nothing can hold it until COMMIT is a programming error, so it stops the
 * operation (and rolls it back) instead of being sent early or lost.
 */
export function afterCommit(tx: Tx, send: () => void): void {
  const sends = pending.get(tx);
  if (!sends)
    throw new Error(
      "afterCommit: this transaction was not opened by inTransaction(), so nothing would send its events after COMMIT",
    );
  sends.push(send);
}
