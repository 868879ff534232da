/** Where a proxy type's traffic leaves: straight out, or through another proxy. */
export type UpstreamSpec =
  | { kind: "direct"; id: string }
  | {
      kind: "http" | "https" | "socks5";
      id: string;
      host: string;
      port: number;
      username: string | undefined;
      password: string | undefined;
      /** https only: PEM certificates trusted for the upstream's TLS besides Node's bundled
       * roots (UPSTREAM_CA_FILE). The host name is verified either way. */
      ca?: string;
    };

const defaultPorts = { http: 80, https: 443, socks5: 1080 } as const;

export function parseUpstream(text: string, trust: { ca?: string } = {}): UpstreamSpec {
  if (text === "direct") return { kind: "direct", id: "direct" };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is neither "direct" nor a proxy URL`);
  }
  const kind = url.protocol.slice(0, -1);
  if (kind !== "http" && kind !== "https" && kind !== "socks5") {
    throw new Error(`"${url.protocol}" upstreams are not supported (use http, https or socks5)`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port === "" ? defaultPorts[kind] : Number(url.port);
  return {
    kind,
    // The id never carries the credentials: it appears in logs and connection-pool keys.
    id: `${kind}://${url.host}`,
    host,
    port,
    username: url.username === "" ? undefined : decodeURIComponent(url.username),
    password: url.password === "" ? undefined : decodeURIComponent(url.password),
    ...(kind === "https" && trust.ca !== undefined ? { ca: trust.ca } : {}),
  };
}

/** FNV-1a: a stable, fast hash so one session id always lands on the same upstream. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
