import type { PublicConfig } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { ExternalLink } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { useConfig } from "../../../lib/config.ts";
import { apiTokenQueryOptions, useRegenerateApiToken } from "../api/api-token.ts";
import { CollapsibleCard } from "./collapsible-card.tsx";

/** docs/product.md#routes-and-layout: the token is shown up to this many characters, the rest masked. */
export const TOKEN_VISIBLE_CHARACTERS = 15;

export function maskToken(token: string): string {
  if (token.length <= TOKEN_VISIBLE_CHARACTERS) return token;
  return `${token.slice(0, TOKEN_VISIBLE_CHARACTERS)}${"•".repeat(token.length - TOKEN_VISIBLE_CHARACTERS)}`;
}

/** docs/product.md#routes-and-layout's integration links: the operator's published packages, by default sections of the
 * server's built-in integration guide (GET /config). */
function integrationLinks(config: PublicConfig) {
  return [
    { label: "Node.js SDK", href: config.node_sdk_url },
    { label: "PHP SDK", href: config.php_sdk_url },
    { label: "MCP server", href: config.mcp_server_url },
  ];
}

const LINK_CLASS = "inline-flex items-center gap-1 font-medium text-indigo-600 hover:underline";

function TokenPanel() {
  const token = useQuery(apiTokenQueryOptions());
  const regenerate = useRegenerateApiToken();
  const [confirming, setConfirming] = useState(false);

  if (token.isPending) return <p className="text-sm text-slate-500">Loading API token…</p>;
  if (token.isError) {
    return (
      <p role="alert" className="text-sm text-red-600">
        Failed to load the API token: {token.error.message}
      </p>
    );
  }
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <input
          readOnly
          aria-label={"API token"}
          value={maskToken(token.data)}
          placeholder="…"
          className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        />
        <CopyButton value={token.data} label="Copy API token" />
      </div>
      {confirming ? (
        <div
          role="alertdialog"
          aria-label="Regenerate API token"
          className="rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>Regenerate the API token? The current token stops working immediately.</p>
          <div className="mt-2 flex gap-2">
            <Button
              onClick={() => regenerate.mutate(undefined, { onSettled: () => setConfirming(false) })}
              disabled={regenerate.isPending}
            >
              Yes, regenerate
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)} disabled={regenerate.isPending}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="secondary" onClick={() => setConfirming(true)}>
          Regenerate
        </Button>
      )}
      {regenerate.isError ? (
        <p role="alert" className="text-sm text-red-600">
          Failed to regenerate the API token: {regenerate.error.message}
        </p>
      ) : null}
    </div>
  );
}

/** docs/product.md#api-token: the personal token (signed in only) and where to use it. */
export function ApiAccessCard({ signedIn }: { signedIn: boolean }) {
  const { data: config } = useConfig();
  return (
    <CollapsibleCard
      cardId="api-access"
      title="API & SDK Access"
      description="Use your API token as a bearer token on the HTTP API, from Node.js, PHP or an MCP client."
    >
      {signedIn ? (
        <TokenPanel />
      ) : (
        <p className="text-sm text-slate-600">
          <Link to="/login" className="font-semibold text-indigo-600 underline underline-offset-2">
            Sign In to get your API token
          </Link>
        </p>
      )}
      <ul className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        {(config ? integrationLinks(config) : []).map((link) => (
          <li key={link.label}>
            <a href={link.href} target="_blank" rel="noreferrer" className={LINK_CLASS}>
              {link.label}
              <ExternalLink aria-hidden="true" className="size-3.5" />
            </a>
          </li>
        ))}
        <li>
          <a href="/docs" target="_blank" rel="noreferrer" className={LINK_CLASS}>
            API Docs
            <ExternalLink aria-hidden="true" className="size-3.5" />
          </a>
        </li>
      </ul>
    </CollapsibleCard>
  );
}
