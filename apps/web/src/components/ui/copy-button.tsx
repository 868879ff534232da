import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "./button.tsx";

/** docs/product.md#formats-and-limits: how long "Copied!" stays. */
export const COPIED_FOR_MS = 2000;

type CopyState = "idle" | "copied" | "failed";

/** Copies `value`; shows Copied! for 2 s, or Failed to copy when the browser refuses (docs/product.md#messages). */
export function CopyButton({
  value,
  label,
  disabled,
  onCopied,
}: {
  value: string;
  label: string;
  disabled?: boolean;
  /** Called once the value is on the clipboard. */
  onCopied?: () => void;
}) {
  const [state, setState] = useState<CopyState>("idle");

  useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error("Clipboard unavailable");
      await navigator.clipboard.writeText(value);
      setState("copied");
      onCopied?.();
    } catch {
      setState("failed");
    }
  }

  return (
    // The status floats under the button: taking room beside it squeezed the field it copies.
    <span className="relative inline-flex shrink-0 items-center">
      <Button
        variant="secondary"
        className="px-3 py-1.5"
        onClick={copy}
        aria-label={label}
        disabled={disabled || value === ""}
      >
        {state === "copied" ? (
          <Check aria-hidden="true" className="size-4 text-emerald-600" />
        ) : (
          <Copy aria-hidden="true" className="size-4" />
        )}
        <span aria-hidden="true">Copy</span>
      </Button>
      <span
        aria-live="polite"
        className="pointer-events-none absolute top-full right-0 z-10 mt-1 text-xs whitespace-nowrap"
      >
        {state === "copied" ? <span className="text-emerald-700">Copied!</span> : null}
        {state === "failed" ? <span className="text-red-600">Failed to copy</span> : null}
      </span>
    </span>
  );
}
