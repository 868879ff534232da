import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

/** How long a resolved gateway address is trusted before asking DNS again. */
const CACHE_MS = 5 * 60_000;

/**
 * The fixed IP /connect shows beside the gateway's host name (docs/product.md#routes-and-layout). Resolved lazily and
 * cached, so start-up never waits on DNS; null when the name does not resolve.
 */
export function createGatewayAddressResolver(host: string, resolve = lookup) {
  let cached: { ip: string | null; at: number } | null = null;
  return async function gatewayAddress(): Promise<string | null> {
    const literal = host.replace(/^\[(.*)\]$/, "$1");
    if (isIP(literal)) return literal;
    if (cached && Date.now() - cached.at < CACHE_MS) return cached.ip;
    const ip = await resolve(host).then(
      (answer) => answer.address,
      () => null,
    );
    cached = { ip, at: Date.now() };
    return ip;
  };
}
