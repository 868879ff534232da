import { BookOpen, LifeBuoy } from "lucide-react";
import { useRef } from "react";
import { Button, buttonClassName } from "../../../components/ui/button.tsx";
import { useConfig } from "../api/get-config.ts";

/** Top-bar Docs link and Support button (SPEC §2), pointing where the operator configured. */
export function HelpLinks() {
  const { data: config } = useConfig();
  const supportLink = useRef<HTMLAnchorElement>(null);
  if (!config) return null;

  return (
    <>
      {config.docs_url ? (
        <a
          href={config.docs_url}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClassName("ghost", "px-3 text-sm")}
          data-testid="docs-link"
        >
          <BookOpen aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">Docs</span>
        </a>
      ) : null}
      {config.support_url ? (
        <>
          {/* SPEC §2: the Support button triggers this hidden link, so mailto: and https: both work. */}
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
            className="px-3"
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
