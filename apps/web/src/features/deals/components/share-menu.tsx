import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Share2 } from "lucide-react";
import { useState } from "react";
import { buttonClassName } from "../../../components/ui/button.tsx";
import { useConfig } from "../../../lib/config.ts";
import { dealShareUrl, shareMessage, shareTargets } from "../share-links.ts";

const ITEM =
  "flex cursor-pointer items-center rounded-md px-3 py-2 text-sm text-slate-700 outline-none data-[highlighted]:bg-slate-100";

/** Share a deal: copy its link, the networks' share pages, e-mail, or the device's own sharing. */
export function ShareMenu({
  dealId,
  title,
  marketingUrl,
}: {
  dealId: string;
  title: string;
  marketingUrl: string;
}) {
  const url = dealShareUrl(marketingUrl, dealId);
  const message = shareMessage(useConfig().data?.price_per_gb_usd);
  const [copied, setCopied] = useState<"idle" | "copied" | "failed">("idle");

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("copied");
    } catch {
      setCopied("failed");
    }
  }

  return (
    // Not modal: a modal menu hides the rest of the page from screen readers (aria-hidden) while
    // its links and buttons stay focusable, which WCAG 4.1.2 forbids. Escape and a click outside
    // still close it, and focus returns to the trigger.
    <DropdownMenu.Root modal={false} onOpenChange={() => setCopied("idle")}>
      <DropdownMenu.Trigger className={buttonClassName("ghost")} aria-label={`Share ${title}`}>
        <Share2 aria-hidden="true" className="size-4" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-44 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
        >
          <DropdownMenu.Item
            className={ITEM}
            onSelect={(event) => {
              event.preventDefault();
              void copy();
            }}
          >
            {copied === "copied" ? "Copied!" : copied === "failed" ? "Failed to copy" : "Copy link"}
          </DropdownMenu.Item>
          {shareTargets(url, message).map((target) => (
            <DropdownMenu.Item key={target.name} asChild className={ITEM}>
              <a href={target.href} target="_blank" rel="noopener noreferrer">
                {target.name}
              </a>
            </DropdownMenu.Item>
          ))}
          {typeof navigator.share === "function" ? (
            <DropdownMenu.Item
              className={ITEM}
              onSelect={() => void navigator.share({ title, text: message.text, url }).catch(() => undefined)}
            >
              Share…
            </DropdownMenu.Item>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
