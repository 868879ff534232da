import { defaultHealthSettings, Exit, type HealthSettings, type ReachExit } from "./upstream-health.ts";
import { fnv1a, type UpstreamSpec } from "./upstreams.ts";

/** An exit pool: the exits its members are, each with its health on this instance. */
export class UpstreamPool {
  private next = 0;
  readonly exits: Exit[];

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

  /** One of the exits that are up: sticky sessions hash to a fixed one of them, everything else
   * goes round-robin. A down exit whose back-off is over is retried in the background meanwhile.
   * When every exit is down, all of them are tried as if up: the marker never refuses
   * everything. */
  pick(sessionKey: string | undefined): Exit {
    const now = Date.now();
    const up: Exit[] = [];
    for (const exit of this.exits) {
      exit.retryIfDue(now);
      if (!exit.down) up.push(exit);
    }
    const candidates = up.length > 0 ? up : this.exits;
    const index =
      sessionKey === undefined ? this.next++ % candidates.length : fnv1a(sessionKey) % candidates.length;
    return candidates[index] as Exit;
  }
}
