import type { ProxyListLink, ProxyListLinkRequest } from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import {
  proxyListLinksQueryOptions,
  useMintProxyListLink,
  useRevokeProxyListLink,
} from "../api/proxy-list.ts";

const describe = (link: ProxyListLink) =>
  `${link.options.count} × ${link.options.format}, ${link.options.protocol}` +
  `${link.options.country ? `, ${link.options.country}` : ""}${link.options.sticky ? ", sticky" : ""}`;

function RevokeButton({ link }: { link: ProxyListLink }) {
  const revoke = useRevokeProxyListLink();
  const [confirming, setConfirming] = useState(false);
  const name = link.label ?? describe(link);
  if (!confirming)
    return (
      <Button variant="secondary" className="py-1 text-xs" onClick={() => setConfirming(true)}>
        Revoke<span className="sr-only"> {name}</span>
      </Button>
    );
  return (
    <div
      role="alertdialog"
      aria-label={`Revoke ${name}`}
      className="mt-2 w-full rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p>Revoke this URL? Whoever fetches it from now on gets a 404.</p>
      <div className="mt-2 flex gap-2">
        <Button disabled={revoke.isPending} onClick={() => revoke.mutate(link.id)}>
          Yes, revoke
        </Button>
        <Button variant="secondary" disabled={revoke.isPending} onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      </div>
      {revoke.error ? <p role="alert">{revoke.error.message}</p> : null}
    </div>
  );
}

/** Download URLs for a scraper fleet: minted for the list as chosen, shown once, revocable. */
export function ProxyListLinks({ request }: { request: ProxyListLinkRequest }) {
  const links = useQuery(proxyListLinksQueryOptions());
  const mint = useMintProxyListLink();
  return (
    <section aria-label="Download URLs" className="mt-4 border-t border-slate-100 pt-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          A download URL serves this list without signing in, until you revoke it.
        </p>
        <Button variant="secondary" disabled={mint.isPending} onClick={() => mint.mutate(request)}>
          Create download URL
        </Button>
      </div>
      {mint.data ? (
        <div className="mt-3 flex items-center gap-2">
          <input
            readOnly
            aria-label="New download URL"
            value={mint.data.url}
            className="min-w-0 flex-1 rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 font-mono text-xs text-slate-900"
          />
          <CopyButton value={mint.data.url} label="Copy the download URL" />
        </div>
      ) : null}
      {mint.data ? <p className="mt-1 text-xs text-slate-600">Copy it now: it is not shown again.</p> : null}
      {mint.error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {mint.error.message}
        </p>
      ) : null}
      {links.data && links.data.length > 0 ? (
        <ul aria-label="Download URLs in use" className="mt-3 space-y-2">
          {links.data.map((link) => (
            <li
              key={link.id}
              className="flex flex-wrap items-center gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm"
            >
              <span className="min-w-0 grow break-words text-slate-900">{link.label ?? describe(link)}</span>
              <span className="text-xs text-slate-600">
                {link.last_used_at
                  ? `Last fetched ${new Date(link.last_used_at).toLocaleString()}`
                  : "Never fetched"}
              </span>
              <RevokeButton link={link} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
