import { useState } from "react";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { classNames } from "../../../lib/class-names.ts";
import { type ExampleInput, type ExampleLanguage, exampleCode, exampleTabs } from "../example-snippets.ts";
import { CollapsibleCard } from "./collapsible-card.tsx";

/** On a phone the lines wrap (a cURL line is wider than the screen); from sm up they keep their shape and
 * scroll inside the card. Either way the block never widens the page. */
const EXAMPLE_CODE_CLASSES =
  "mt-4 max-w-full overflow-x-auto rounded-xl bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100 whitespace-pre-wrap break-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-400 sm:whitespace-pre sm:break-normal";

/** docs/product.md#example-code: cURL, Node.js and Python tabs with the current credentials. */
export function ExampleCodeCard({ input }: { input: ExampleInput | null }) {
  const [language, setLanguage] = useState<ExampleLanguage>("curl");
  const code = input ? exampleCode(language, input) : "";

  return (
    <CollapsibleCard cardId="example-code" title="Example Code">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div role="tablist" aria-label="Example language" className="flex gap-1 rounded-lg bg-slate-100 p-1">
          {exampleTabs(input).map((tab) => (
            <button
              key={tab.id}
              type="button"
              role="tab"
              aria-selected={language === tab.id}
              onClick={() => setLanguage(tab.id)}
              className={classNames(
                "rounded-md px-3 py-1.5 text-sm font-medium",
                language === tab.id
                  ? "bg-white text-slate-900 shadow-sm"
                  : "text-slate-600 hover:text-slate-900",
              )}
            >
              {tab.label}
            </button>
          ))}
        </div>
        <CopyButton value={code} label="Copy example code" />
      </div>
      <pre
        role="tabpanel"
        aria-label="Example code"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: from sm up the block scrolls sideways; a keyboard user scrolls it once focused
        tabIndex={0}
        className={EXAMPLE_CODE_CLASSES}
      >
        <code data-testid="example-code">{code || "Loading credentials…"}</code>
      </pre>
    </CollapsibleCard>
  );
}
