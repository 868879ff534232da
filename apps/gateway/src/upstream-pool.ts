import { defaultHealthSettings, Exit, type HealthSettings, type ReachExit } from "./upstream-health.ts";
import { fnv1a, servesCountry, type UpstreamSpec } from "./upstreams.ts";

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

/** Rendezvous (highest random weight) score of one exit for one session: the same on every
 * instance, and when an exit leaves, only its sessions move. */
function score(sessionKey: string, exit: Exit): number {
  let h = fnv1a(`${sessionKey}\u0000${exit.id}`);
  // Murmur3's finaliser spreads FNV's weak low bits over the whole word.
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function rendezvous(sessionKey: string, exits: readonly Exit[]): Exit {
  let best = exits[0] as Exit;
  for (const exit of exits) if (score(sessionKey, exit) > score(sessionKey, best)) best = exit;
  return best;
}

/** An exit pool: the exits its members are, each with its health on this instance. */
export class UpstreamPool {
  private next = 0;
  readonly exits: Exit[];
  private readonly sessions = new Map<string, SessionMemory>();

  constructor(
    readonly name: string,
    members: UpstreamSpec[],
    settings: HealthSettings = defaultHealthSettings,
    onChange?: (exit: Exit) => void,
    reach?: ReachExit,
  ) {
    if (members.length === 0) throw new Error("an upstream pool needs at least one member");
    this.exits = members.map((spec) => new Exit(name, spec, settings, onChange, reach));
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
   * sticky session keeps the exit it last used while that is up and the session is within its
   * lifetime, else takes the rendezvous choice among the up exits; everything else goes
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
      return { exit: candidates[this.next++ % candidates.length] as Exit, moved: false };
    }
    const memoryKey = `${request.country ?? ""}:${sessionKey}`;
    const remembered = this.sessions.get(memoryKey);
    const known = remembered && remembered.expiresAt > now ? remembered.exit : undefined;
    const preferred = rendezvous(sessionKey, matching);
    const exit =
      known && candidates.includes(known)
        ? known
        : candidates === matching
          ? preferred
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
