import { z } from "zod";
import { successEnvelope } from "./envelope.ts";

export const HOSTNAMES_REQUIRED = "At least one hostname is required";
export const HOSTNAMES_INVALID = "Please enter valid hostnames";
/** Hints a user may keep: enough for any real list, bounded so one account cannot flood the learner. */
export const MAX_HOSTNAMES = 500;
export const HOSTNAMES_TOO_MANY = `At most ${MAX_HOSTNAMES} hostnames are allowed`;
/** Lines accepted in one save before de-duplication (a pasted list may repeat itself). */
const MAX_HOSTNAME_LINES = 2_000;

/** An optional http:// or https:// prefix, a domain whose last label is 2+ letters, an optional
 * trailing slash. Labels are 1-63 letters, digits or inner hyphens. */
const HOSTNAME_LINE = /^(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})\/?$/i;

export type HostnameCheck = { ok: true; hostnames: string[] } | { ok: false; message: string };

/** Checks lines as typed (one hostname per line) and gives back the bare, lower-case, de-duplicated
 * hostnames in the order first written; blank lines are ignored. */
export function parseHostnameLines(lines: readonly string[]): HostnameCheck {
  const filled = lines.map((line) => line.trim()).filter((line) => line !== "");
  if (filled.length === 0) return { ok: false, message: HOSTNAMES_REQUIRED };
  if (filled.length > MAX_HOSTNAME_LINES) return { ok: false, message: HOSTNAMES_TOO_MANY };
  const hostnames = new Set<string>();
  for (const line of filled) {
    const host = HOSTNAME_LINE.exec(line)?.[1];
    if (!host || host.length > 253) return { ok: false, message: HOSTNAMES_INVALID };
    hostnames.add(host.toLowerCase());
  }
  if (hostnames.size > MAX_HOSTNAMES) return { ok: false, message: HOSTNAMES_TOO_MANY };
  return { ok: true, hostnames: [...hostnames] };
}

/** The first line (1-based, counting blank lines as the text area shows them) that is not a
 * hostname, and its text; null when every filled line is one. The form names it. */
export function firstInvalidHostnameLine(lines: readonly string[]): { line: number; text: string } | null {
  for (const [index, raw] of lines.entries()) {
    const text = raw.trim();
    if (text === "") continue;
    const host = HOSTNAME_LINE.exec(text)?.[1];
    if (!host || host.length > 253) return { line: index + 1, text };
  }
  return null;
}

/** POST /settings/hostnames body: the shape here, the lines themselves by parseHostnameLines
 * (its messages are the ones the form shows, word for word). */
export const saveHostnamesBody = z.object({
  hostnames: z
    .array(z.string({ error: HOSTNAMES_INVALID }).max(300, { error: HOSTNAMES_INVALID }), {
      error: "hostnames must be a list of strings",
    })
    .max(MAX_HOSTNAME_LINES, { error: HOSTNAMES_TOO_MANY }),
});
export type SaveHostnamesBody = z.infer<typeof saveHostnamesBody>;

/** The operator's decision for a domain (the most specific one covering it), which under
 * -routing-smart wins over every customer's rule and the learner's verdict; null: none. */
const operatorOverride = z.enum(["datacenter", "premium"]).nullable();

export const hostnamesResponse = successEnvelope(
  z.object({ hostnames: z.array(z.object({ hostname: z.string(), override: operatorOverride.optional() })) }),
);
export type HostnamesResponse = z.infer<typeof hostnamesResponse>;

export const ROUTING_SERVICES = ["datacenter", "premium"] as const;
export type RoutingService = (typeof ROUTING_SERVICES)[number];
export const VERDICTS = ["eligible", "blocked", "unknown"] as const;
export type Verdict = (typeof VERDICTS)[number];
export const PROBE_POOLS = ["dc", "mobile"] as const;

/** One fetch of a site's front page through one pool, as the learner saw it. */
export const probeObservationSchema = z.object({
  at: z.string(),
  pool: z.enum(PROBE_POOLS),
  url: z.string(),
  status: z.number().int().nullable(),
  bytes: z.number().int().nonnegative(),
  /** The block signal this fetch showed (e.g. "status 403", "captcha in body"), if any. */
  signal: z.string().nullable(),
  error: z.string().nullable(),
});
export type ProbeObservation = z.infer<typeof probeObservationSchema>;

/** What a verdict rests on: the fetches of the last probe and the signal that decided it. */
export const verdictEvidenceSchema = z.object({
  source: z.enum(["probe", "traffic"]),
  signal: z.string().nullable(),
  observations: z.array(probeObservationSchema),
});
export type VerdictEvidence = z.infer<typeof verdictEvidenceSchema>;

export const routingRuleSchema = z.object({
  id: z.number().int(),
  rule: z.string(),
  /** What the gateway does with the domain under -routing-smart; the toggle is on for datacenter. */
  service: z.enum(ROUTING_SERVICES),
  enabled: z.boolean(),
  /** Who set `service` last: the learner (follows its verdicts) or the user (the learner only suggests). */
  decided_by: z.enum(["learner", "user"]),
  verdict: z.enum(VERDICTS),
  last_probe_at: z.string().nullable(),
  evidence: verdictEvidenceSchema.nullable(),
  /** Bytes of this user's traffic to the domain (and its subdomains) routed over datacenter in the last 30 days, in GB. */
  dc_gb_30d: z.number().nonnegative(),
  /** What those bytes would have cost more over mobile, at today's prices. */
  saved_usd_30d: z.number().nonnegative(),
  override: operatorOverride,
});
export type RoutingRule = z.infer<typeof routingRuleSchema>;

export const routingRulesResponse = successEnvelope(z.array(routingRuleSchema));
export const routingRuleResponse = successEnvelope(routingRuleSchema);

export const routingRuleParams = z.object({ id: z.string() });
export const updateRoutingRuleBody = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
});
export type UpdateRoutingRuleBody = z.infer<typeof updateRoutingRuleBody>;
