import type { UpstreamSpec } from "@bytetoll/egress";
import { forwardedHeaders, type RequestHead } from "../base/http-message.ts";
import { carriesAbsoluteForm, proxyAuthorization } from "../dial/dial.ts";
import { isSecureUrl } from "../dial/origin-tls.ts";

/** The path and query of an absolute-form target exactly as the client wrote them (no
 * normalisation: a proxy forwards what it was given). */
export function originForm(target: string): string {
  const afterScheme = target.indexOf("//") + 2;
  const start = target.slice(afterScheme).search(/[/?#]/);
  if (start === -1) return "/";
  const rest = target.slice(afterScheme + start).split("#")[0] as string;
  return rest.startsWith("/") ? rest : `/${rest}`;
}

/** The request head for the target: origin form to a site, absolute form to an HTTP(S) upstream,
 * whose additions (the longer request line, the upstream's Proxy-Authorization) are the proxy's
 * own bytes, never billed. */
export function targetHead({
  head,
  url,
  tunnel: { upstream },
}: {
  head: RequestHead;
  url: URL;
  tunnel: { upstream: UpstreamSpec };
}): {
  text: string;
  proxyBytes: number;
} {
  // RFC 9112 §3.2.2: with an absolute-form target the proxy's Host is the target's authority.
  const headers = forwardedHeaders(head.headers.filter((h) => h.key !== "host"));
  // An HTTP/1.0 client's request goes on as HTTP/1.0, so the site answers with a body such a
  // client can read (never chunked: RFC 9112 §6.1), as squid and tinyproxy deliver it.
  const version = head.version === "1.0" ? "HTTP/1.0" : "HTTP/1.1";
  const originHead = `${head.method} ${originForm(head.target)} ${version}\r\nHost: ${url.host}\r\n${headers}\r\n`;
  // Through an HTTP(S) upstream the request goes to the upstream in absolute form, unless the
  // gateway speaks TLS to an https:// site itself over a tunnel through it.
  if (isSecureUrl(url) || !carriesAbsoluteForm(upstream)) return { text: originHead, proxyBytes: 0 };
  const text = `${head.method} ${head.target} ${version}\r\nHost: ${url.host}\r\n${proxyAuthorization(upstream)}${headers}\r\n`;
  return { text, proxyBytes: Buffer.byteLength(text) - Buffer.byteLength(originHead) };
}
