/**
 * A table of the moves a stored status may make, from → to, for a row whose status is money's
 * state (a deal, a deposit, a payout, an auto top-up). Each table has one writer, an UPDATE that
 * asks `assertMoves` first and puts the allowed sources in its WHERE: a move the table does not
 * list is a programming error (it throws before any SQL, and the caller's transaction rolls
 * back), and a row that moved meanwhile is left alone (compare-and-set). Orders keep their own
 * table of the same shape (orders/order-status.ts).
 */
export interface StatusTable<S extends string> {
  /** What the status belongs to, for the error ("deal", "payout"). */
  readonly name: string;
  readonly statuses: readonly S[];
  readonly moves: Readonly<Record<S, readonly S[]>>;
  canMove(from: S, to: S): boolean;
  /** Throws unless every one of `from` may move to `to`. */
  assertMoves(from: readonly S[], to: S): void;
  /** A status read from the database; one the table does not know is a stop, not a guess. */
  parse(value: string): S;
}

export function statusTable<S extends string>(
  name: string,
  moves: Readonly<Record<S, readonly S[]>>,
): StatusTable<S> {
  const statuses = Object.keys(moves) as S[];
  const canMove = (from: S, to: S) => moves[from].includes(to);
  return {
    name,
    statuses,
    moves,
    canMove,
    assertMoves(from, to) {
      if (from.length === 0) throw new Error(`${name} status move to ${to} names no source`);
      for (const source of from) {
        if (!canMove(source, to)) throw new Error(`${name} status may not move ${source} → ${to}`);
      }
    },
    parse(value) {
      if ((statuses as string[]).includes(value)) return value as S;
      throw new Error(`unknown ${name} status in the database: ${value}`);
    },
  };
}
