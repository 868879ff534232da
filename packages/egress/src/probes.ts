/** What the learner and the admin console ask of a prober (the gateway's `Prober` does it: it
 * dials through the gateway's pools). */

export type ProbePool = "mobile" | "dc";
export type ProbeScheme = "http" | "https";

/** One GET of a front page through one pool. `error` is set when no response arrived (refused by
 * the egress guard, dial or TLS failure, timeout); `body` is the start of the body, at most
 * 512 KB, `bytes` all of it that arrived. */
export interface ProbeResponse {
  status: number | null;
  headers: Record<string, string>;
  body: Buffer;
  bytes: number;
  /** "forbidden", "exit" (the pool's own proxy could not be reached: says nothing about the
   * site), "connect", "tls" or "timeout", with the reason after a colon. */
  error: string | null;
}

export interface Probes {
  /** `path`: what to GET (a front page: "/"). */
  fetch(
    pool: ProbePool,
    scheme: ProbeScheme,
    host: string,
    port: number,
    path?: string,
  ): Promise<ProbeResponse>;
}
