import { classNames } from "../../../lib/class-names.ts";
import type { RealtimeState } from "../../../lib/realtime/realtime-connection.ts";

const TEXT: Record<RealtimeState, string> = {
  connected: "Live updates on",
  connecting: "Connecting to live updates…",
  disconnected: "Live updates off: use Refresh",
  error: "Live updates unavailable: use Refresh",
};

/** Tells the person whether the page will change by itself or needs a Refresh. */
export function LiveStatusIndicator({ state }: { state: RealtimeState }) {
  return (
    <span
      className="inline-flex items-center gap-1.5 text-xs text-slate-500"
      data-testid="live-status"
      data-state={state}
    >
      <span
        aria-hidden="true"
        className={classNames(
          "size-2 rounded-full",
          state === "connected"
            ? "bg-emerald-500"
            : state === "connecting"
              ? "animate-pulse bg-amber-400"
              : "bg-slate-300",
        )}
      />
      {TEXT[state]}
    </span>
  );
}
