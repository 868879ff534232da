import type { Allowlist } from "@bytetoll/contracts";
import type { Database } from "@bytetoll/db";
import ipaddr from "ipaddr.js";
import { AppError } from "../../errors.ts";
import { checkNoOverlap, parseEntry } from "./entries.ts";
import { createAllowlistRepository } from "./repository.ts";

/** Every refused proof reads the same, whatever the reason: a refusal must not tell anyone whether
 * another account holds the address. */
export const PROOF_REFUSED =
  "This link proves nothing: it is unknown, used or expired, it was not opened from the address it is for, or that address cannot be given to this account.";

/** The address a request came from as an allowlist holds it: an IPv4-mapped IPv6 address (what a
 * dual-stack socket reports for an IPv4 client) is the IPv4 address. */
function callerAddress(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.parse(ip);
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address().toString();
  }
  return address.toString();
}

/** An account's IP allowlist: who may connect without credentials as the account. Any account may
 * list any address; an entry takes effect once proven from an address it holds, and no two
 * accounts hold the same proven range (docs/product.md#ip-allowlist). */
export function createAllowlistService(database: Database, appUrl: string) {
  const repository = createAllowlistRepository(database);

  async function read(userId: string, yourIp: string): Promise<Allowlist> {
    const rows = await repository.list(userId);
    return {
      ips: rows.map((row) => row.text),
      pending: rows
        .filter((row) => !row.proven)
        .map((row) => ({
          ip: row.text,
          proof_url:
            row.proof_token && row.proof_expires_at ? `${appUrl}/allowlist/proof/${row.proof_token}` : null,
          expires_at: row.proof_expires_at,
        })),
      your_ip: yourIp,
    };
  }

  return {
    /** The list, and the address `ip` (the caller's) as the customer would add it. */
    list: (userId: string, ip: string) => read(userId, callerAddress(ip)),

    /** Replaces the list. Each entry is checked and normalised first (a 400 names the bad one, and
     * nothing changes); entries holding the caller's address are proven at once. */
    async replace(userId: string, ips: readonly string[], ip: string): Promise<Allowlist> {
      const entries = ips.map(parseEntry);
      checkNoOverlap(entries);
      await repository.replace(
        userId,
        entries.map((entry) => `${entry.address.toString()}/${entry.prefix}`),
      );
      const caller = callerAddress(ip);
      if (ipaddr.isValid(caller)) await repository.proveFrom(userId, caller);
      return read(userId, caller);
    },

    /** A proof link fetched from `ip`: the entry it proved, or a 403 that reads the same for every
     * reason. */
    async prove(token: string, ip: string): Promise<{ ip: string }> {
      const caller = callerAddress(ip);
      const proved = ipaddr.isValid(caller) ? await repository.proveByToken(token, caller) : null;
      if (!proved) throw new AppError(403, PROOF_REFUSED, "allowlist_proof_refused");
      return { ip: proved };
    },
  };
}
