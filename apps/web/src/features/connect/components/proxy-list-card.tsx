import {
  PROXY_LIST_DEFAULT_COUNT,
  PROXY_LIST_MAX_COUNT,
  type ProxyListFormat,
  type ProxyListQuery,
  proxyListLine,
} from "@bytetoll/contracts";
import { useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { CopyButton } from "../../../components/ui/copy-button.tsx";
import { proxyListQueryOptions } from "../api/proxy-list.ts";
import type { UsernameOptions } from "../username-options.ts";
import { CollapsibleCard } from "./collapsible-card.tsx";
import { ProxyListLinks } from "./proxy-list-links.tsx";

const PREVIEW_LINES = 5;
const LINE_FORMATS: Array<{ value: Exclude<ProxyListFormat, "json">; label: string }> = [
  { value: "host:port:user:pass", label: "host:port:user:pass" },
  { value: "user:pass@host:port", label: "user:pass@host:port" },
  { value: "url", label: "URL (http:// or socks5h://)" },
];
const FIELD = "rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-900";

/** The count as typed, or why it is refused (the same words as the API's). */
function parseCount(text: string): { count: number } | { problem: string } {
  const count = Number(text);
  return Number.isInteger(count) && count >= 1 && count <= PROXY_LIST_MAX_COUNT
    ? { count }
    : { problem: `count must be from 1 to ${PROXY_LIST_MAX_COUNT}` };
}

function download(text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "proxy-list.txt";
  link.click();
  URL.revokeObjectURL(url);
}

/** docs/product.md#proxy-list: many lines at once, with the page's country and session choices. */
export function ProxyListCard({ options, socks }: { options: UsernameOptions; socks: boolean }) {
  const [countText, setCountText] = useState(String(PROXY_LIST_DEFAULT_COUNT));
  const [format, setFormat] = useState<Exclude<ProxyListFormat, "json">>("host:port:user:pass");
  const [protocol, setProtocol] = useState<"http" | "socks5">("http");
  const parsed = parseCount(countText);
  const query: ProxyListQuery = {
    count: "count" in parsed ? parsed.count : PROXY_LIST_DEFAULT_COUNT,
    protocol: socks ? protocol : "http",
    country: options.country ?? undefined,
    city: options.city ?? undefined,
    sticky: options.sessionId !== null,
    sesstime: options.sessionId !== null ? options.sessionMinutes : undefined,
  };
  const list = useQuery({ ...proxyListQueryOptions(query), enabled: "count" in parsed });
  const text = (list.data ?? []).map((entry) => `${proxyListLine(entry, format)}\n`).join("");
  const preview = text.split("\n").slice(0, PREVIEW_LINES).join("\n");

  return (
    <CollapsibleCard
      cardId="proxy-list"
      title="Proxy list"
      description="Lines to paste into a scraper or proxy manager: the country, city and sticky session chosen above, each sticky line its own session."
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <label className="text-sm font-medium text-slate-900">
          Lines
          <input
            type="number"
            min={1}
            max={PROXY_LIST_MAX_COUNT}
            value={countText}
            onChange={(event) => setCountText(event.target.value)}
            className={`mt-1 block w-full ${FIELD}`}
          />
        </label>
        <label className="text-sm font-medium text-slate-900">
          Format
          <select
            value={format}
            onChange={(event) => setFormat(event.target.value as typeof format)}
            className={`mt-1 block w-full ${FIELD}`}
          >
            {LINE_FORMATS.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
        {socks ? (
          <label className="text-sm font-medium text-slate-900">
            Protocol
            <select
              value={protocol}
              onChange={(event) => setProtocol(event.target.value as typeof protocol)}
              className={`mt-1 block w-full ${FIELD}`}
            >
              <option value="http">HTTP</option>
              <option value="socks5">SOCKS5</option>
            </select>
          </label>
        ) : null}
      </div>
      {"problem" in parsed ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {parsed.problem}
        </p>
      ) : null}
      {list.error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          Error loading the proxy list: {list.error.message}
        </p>
      ) : null}
      <p className="mt-3 text-sm font-medium text-slate-900">Preview</p>
      <pre
        data-testid="proxy-list-preview"
        className="mt-1 rounded-lg bg-slate-900 p-3 text-xs break-all whitespace-pre-wrap text-slate-100"
      >
        <code>{list.isPending ? "Loading…" : preview}</code>
      </pre>
      <p className="mt-1 text-xs text-slate-600">
        {list.data
          ? `The first ${Math.min(PREVIEW_LINES, list.data.length)} of ${list.data.length} lines.`
          : ""}
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <CopyButton value={text} label="Copy the list" disabled={!list.data} />
        <Button variant="secondary" disabled={!list.data} onClick={() => download(text)}>
          <Download aria-hidden="true" className="size-4" />
          Download .txt
        </Button>
      </div>
      <ProxyListLinks request={{ ...query, format }} />
    </CollapsibleCard>
  );
}
