import { fnv1a, servesCountry, type UpstreamSpec } from "@bytetoll/egress";
import { defaultHealthSettings, Exit, type HealthSettings, type ReachExit } from "./upstream-health.ts";

/** What a request asks of the pool. */
export interface ExitRequest {
  /** Account and session id (`{account}:{id}`): the same key picks the same exit. */
  sessionKey?: string | undefined;
  /** Upper-case ISO code: only exits that serve it. */
  country?: string | undefined;
  /** How long after its last use a session remembers its exit. */
  sessionMinutes?: number;
}

export interface ExitPick {
  exit: Exit;
  /** The exit the session hashes to is down, so it was given another: its exit IP changed. */
  moved: boolean;
}

interface SessionMemory {
  exit: Exit;
  expiresAt: number;
}

/** Sessions remembered on one instance at most; past it the oldest are forgotten (they fall back
 * to rendezvous hashing, which picks the same exit unless health changed). */
const MAX_SESSIONS = 100_000;

/** An exit's weight (1-100; 1 when it gives none). */
const weightOf = (exit: Exit): number => exit.spec.weight ?? 1;

/** Weighted rendezvous (highest random weight) score of one exit for one session: the same on
 * every instance; an exit of weight w wins w times as many sessions as one of weight 1, and when
 * an exit leaves or another's weight changes, only the sessions that move to or from that exit
 * move. With equal weights the order is the plain hash's. */
function score(sessionKey: string, exit: Exit): number {
  let h = fnv1a(`${sessionKey}\u0000${exit.id}`);
  // Murmur3's finaliser spreads FNV's weak low bits over the whole word.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  const unit = (((h ^ (h >>> 16)) >>> 0) + 0.5) / 2 ** 32;
  return -weightOf(exit) / Math.log(unit);
}

function rendezvous(sessionKey: string, exits: readonly Exit[]): Exit {
  let best = exits[0] as Exit;
  for (const exit of exits) if (score(sessionKey, exit) > score(sessionKey, best)) best = exit;
  return best;
}

/** An exit pool: the exits its members are, each with its health on this instance. */
export class UpstreamPool {
  /** Smooth weighted round robin: each exit's running credit. */
  private readonly credit = new Map<Exit, number>();
  private readonly fixed: Exit[];
  /** The exits managed in the console, as last loaded (replaced whole by `setConsole`). */
  private console: Exit[] = [];
  exits: Exit[];
  private readonly sessions = new Map<string, SessionMemory>();

  constructor(
    readonly name: string,
    members: UpstreamSpec[],
    private readonly settings: HealthSettings = defaultHealthSettings,
    private readonly onChange?: (exit: Exit) => void,
    private readonly reach?: ReachExit,
  ) {
    if (members.length === 0) throw new Error("an upstream pool needs at least one member");
    this.fixed = members.map((spec) => new Exit(name, spec, settings, onChange, reach));
    this.exits = this.fixed;
  }

  /** The console's exits of this pool from now on (the environment's stay): an exit whose spec
   * did not change keeps its health and figures; one that left gets no new connection (open
   * tunnels hold their sockets and go on). */
  setConsole(specs: UpstreamSpec[]): void {
    const kept = new Map(this.console.map((exit) => [JSON.stringify(exit.spec), exit]));
    this.console = specs.map(
      (spec) =>
        kept.get(JSON.stringify(spec)) ?? new Exit(this.name, spec, this.settings, this.onChange, this.reach),
    );
    for (const old of kept.values()) {
      if (this.console.includes(old)) continue;
      const key = old.spec.ledger?.key;
      old.successor = this.console.find((exit) => key !== undefined && exit.spec.ledger?.key === key) ?? null;
    }
    this.exits = [...this.fixed, ...this.console];
    for (const exit of this.credit.keys()) if (!this.exits.includes(exit)) this.credit.delete(exit);
  }

  /** Smooth weighted round robin (nginx's): over any run of picks, each candidate gets its share
   * of the weights, interleaved; with equal weights, plain round robin. */
  private roundRobin(candidates: readonly Exit[]): Exit {
    let total = 0;
    let best = candidates[0] as Exit;
    let bestCredit = Number.NEGATIVE_INFINITY;
    for (const exit of candidates) {
      const credit = (this.credit.get(exit) ?? 0) + weightOf(exit);
      this.credit.set(exit, credit);
      total += weightOf(exit);
      if (credit > bestCredit) {
        best = exit;
        bestCredit = credit;
      }
    }
    this.credit.set(best, bestCredit - total);
    return best;
  }

  /** The countries some exit of the pool names (templates that carry any country are not listed). */
  countries(): string[] {
    return [...new Set(this.exits.flatMap((exit) => exit.spec.countries ?? []))].sort();
  }

  /** One exit for a request without a country or session. */
  pick(sessionKey?: string): Exit {
    return (this.choose({ sessionKey }) as ExitPick).exit;
  }

  /** One of the exits that are up and serve the request's country (null: none serves it). A
   * sticky session takes the exit it hashes to (rendezvous) when that is up; while it is down, it
   * keeps the exit it moved to while that is up and the session is within its lifetime, else takes
   * the rendezvous choice among the up exits (both weighted); everything else goes weighted
   * round-robin. A down exit whose back-off is over is retried in the background meanwhile. When
   * every matching exit is down, all of them are tried as if up: the marker never refuses
   * everything. */
  choose(request: ExitRequest, now = Date.now()): ExitPick | null {
    const matching: Exit[] = [];
    const up: Exit[] = [];
    for (const exit of this.exits) {
      exit.retryIfDue(now);
      if (!servesCountry(exit.spec, request.country)) continue;
      matching.push(exit);
      if (!exit.down) up.push(exit);
    }
    if (matching.length === 0) return null;
    const candidates = up.length > 0 ? up : matching;
    const { sessionKey } = request;
    if (sessionKey === undefined) {
      return { exit: this.roundRobin(candidates), moved: false };
    }
    const memoryKey = `${request.country ?? ""}:${sessionKey}`;
    const remembered = this.sessions.get(memoryKey);
    const known = remembered && remembered.expiresAt > now ? remembered.exit : undefined;
    const preferred = rendezvous(sessionKey, matching);
    // The exit the session hashes to whenever it is up (a session that moved away moves back once
    // the health check finds it up again, as on every instance); while it is down, the exit the
    // session moved to, as long as that one stays up.
    const exit = candidates.includes(preferred)
      ? preferred
      : known && candidates.includes(known)
        ? known
        : rendezvous(sessionKey, candidates);
    this.remember(memoryKey, exit, now + (request.sessionMinutes ?? 10) * 60_000);
    // Told on every request while the session is away from the exit it hashes to, so that every
    // instance and every connection of the session says the same.
    return { exit, moved: exit !== preferred };
  }

  private remember(key: string, exit: Exit, expiresAt: number): void {
    this.sessions.delete(key);
    this.sessions.set(key, { exit, expiresAt });
    if (this.sessions.size <= MAX_SESSIONS) return;
    // Maps iterate in insertion order and a use re-inserts: the first key is the least recent.
    const oldest = this.sessions.keys().next().value;
    if (oldest !== undefined) this.sessions.delete(oldest);
  }
}
