import { ChevronDown } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { classNames } from "../../../lib/class-names.ts";

/** Where a card remembers that it was collapsed (docs/product.md#routes-and-layout); logout clears local storage. */
export const collapsedStorageKey = (cardId: string) => `bytetoll.connect.${cardId}-collapsed`;

function readCollapsed(cardId: string): boolean {
  try {
    return window.localStorage.getItem(collapsedStorageKey(cardId)) === "true";
  } catch {
    return false;
  }
}

function storeCollapsed(cardId: string, collapsed: boolean): void {
  try {
    if (collapsed) window.localStorage.setItem(collapsedStorageKey(cardId), "true");
    else window.localStorage.removeItem(collapsedStorageKey(cardId));
  } catch {
    // Storage refused: the card still folds, it just forgets on reload.
  }
}

export interface CollapsibleCardProps {
  cardId: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
}

/** A Connect-page card whose header folds it away, remembered per card across visits. */
export function CollapsibleCard({ cardId, title, description, children }: CollapsibleCardProps) {
  const [collapsed, setCollapsed] = useState(() => readCollapsed(cardId));
  const bodyId = useId();

  function toggle() {
    setCollapsed((current) => {
      storeCollapsed(cardId, !current);
      return !current;
    });
  }

  return (
    <section aria-label={title} className="rounded-2xl border border-slate-200 bg-white shadow-sm">
      <h2 className="text-base font-semibold text-slate-900">
        <button
          type="button"
          onClick={toggle}
          aria-expanded={!collapsed}
          aria-controls={bodyId}
          className="flex w-full items-center justify-between gap-4 px-4 py-4 text-left sm:px-6"
        >
          <span>{title}</span>
          <ChevronDown
            aria-hidden="true"
            className={classNames("size-5 text-slate-500 transition-transform", collapsed && "-rotate-90")}
          />
        </button>
      </h2>
      <div id={bodyId} hidden={collapsed} className="border-t border-slate-200 px-4 py-5 sm:px-6">
        {description ? <p className="mb-4 text-sm text-slate-600">{description}</p> : null}
        {children}
      </div>
    </section>
  );
}
