import type { PublicConfig } from "@bytetoll/contracts";
import { BookOpen, LifeBuoy } from "lucide-react";
import { useRef } from "react";
import { Button, buttonClassName } from "../ui/button.tsx";

/** Top-bar Docs link and Support button, pointing where the operator configured. */
export function HelpLinks({
  config,
}: {
  config: Pick<PublicConfig, "docs_url" | "support_url"> | undefined;
}) {
  const supportLink = useRef<HTMLAnchorElement>(null);
  if (!config) return null;

  return (
    <>
      {config.docs_url ? (
        <a
          href={config.docs_url}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClassName("ghost", "shrink-0 px-2 text-sm sm:px-3")}
          data-testid="docs-link"
        >
          <BookOpen aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">Docs</span>
        </a>
      ) : null}
      {config.support_url ? (
        <>
          {/* The Support button triggers this hidden link, so mailto: and https: both work. */}
          <a
            ref={supportLink}
            href={config.support_url}
            target="_blank"
            rel="noopener noreferrer"
            hidden
            tabIndex={-1}
            data-testid="support-link"
          >
            Support
          </a>
          <Button
            variant="ghost"
            className="shrink-0 px-2 sm:px-3"
            onClick={() => supportLink.current?.click()}
            data-testid="support-button"
          >
            <LifeBuoy aria-hidden="true" className="size-4" />
            <span className="sr-only sm:not-sr-only">Support</span>
          </Button>
        </>
      ) : null}
    </>
  );
}
