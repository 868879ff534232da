import type { RoutingRule, RoutingService } from "@bytetoll/contracts";
import { useEffect, useState } from "react";
import { useHostnameOverrides, useHostnames } from "../api/get-hostnames.ts";
import { useHostnamesAdded } from "../api/save-hostnames.ts";

/** The learner probes a new hint within seconds; a minute is its promise (docs/product.md#intelligence-rules). */
export const FIRST_CHECK_MS = 60_000;

export const BEING_CHECKED = "Being checked: the learner tries it through both pools within a minute.";
export const NOT_DECIDED =
  "Not decided yet: the learner's checks so far could not tell whether datacenter works (for example the site refused or did not answer both pools). It checks again after 10 minutes, then less and less often, at least once a day. Until then requests to it go over mobile.";

/** What routing does with a host name the operator decided, whatever the learner has found. */
export function operatorDecided(override: RoutingService): string {
  return override === "datacenter"
    ? "Operator: datacenter. The operator sends this domain over datacenter for every customer using Intelligence."
    : "Operator: mobile. The operator keeps this domain on mobile for every customer using Intelligence.";
}

/** Saved host names the learner has no verdict for yet (so no rule), with what is happening to
 * them: just saved from this page, it is being checked; otherwise the checks were inconclusive. */
export function UndecidedHostnames({ rules }: { rules: RoutingRule[] }) {
  const saved = useHostnames();
  const overrides = useHostnameOverrides().data;
  const added = useHostnamesAdded();
  const [now, setNow] = useState(() => Date.now());
  const decided = new Set(rules.map((rule) => rule.rule));
  const undecided = (saved.data ?? []).filter((hostname) => !decided.has(hostname));
  const checkingUntil = added ? added.at + FIRST_CHECK_MS : 0;
  const beingChecked = (hostname: string) => now < checkingUntil && added?.hostnames.includes(hostname);

  // A save starts a first minute; when it is over the text changes by itself.
  useEffect(() => {
    setNow(Date.now());
    const left = checkingUntil - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left);
    return () => clearTimeout(timer);
  }, [checkingUntil]);

  if (undecided.length === 0) return null;
  return (
    <ul aria-label="Hostnames not decided yet" className="divide-y divide-slate-200">
      {undecided.map((hostname) => (
        <li key={hostname} className="space-y-1 py-3" data-testid="undecided-hostname">
          <p className="text-sm font-medium break-all text-slate-900">{hostname}</p>
          <p className="text-xs text-slate-500">
            {overrides?.has(hostname)
              ? operatorDecided(overrides.get(hostname) as RoutingService)
              : beingChecked(hostname)
                ? BEING_CHECKED
                : NOT_DECIDED}
          </p>
        </li>
      ))}
    </ul>
  );
}
