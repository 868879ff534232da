import { CHANGES_CHANNEL, type Database } from "@bytetoll/db";
import { type Cidr, cidrContains, type IpAddress, parseCidr, parseIpLiteral } from "@bytetoll/egress";
import type ipaddr from "ipaddr.js";
import type { Logger } from "pino";
import type { ClientSocket } from "../base/native-socket.ts";

/** Migration 0024's trigger announces a change to a user's allowlist as "allowlist:<user id>". */
const ALLOWLIST_PREFIX = "allowlist:";
const COALESCE_MS = 25;
const RETRY_MS = 1_000;

/** A client's address as an allowlist entry holds it: an IPv4-mapped IPv6 address (what a
 * dual-stack socket reports for an IPv4 client) is the IPv4 address. */
export function clientAddress(text: string | undefined): IpAddress | null {
  const address = parseIpLiteral(text ?? "");
  if (address?.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

/**
 * Every account's proven IP allowlist entries on this instance: which account a connection without
 * credentials belongs to, by its address (migrations 0024 and 0031; entries waiting for a proof
 * admit no one). Read whole at start,
 * then per account as the change feed announces changes (and whole again when the feed comes
 * back), so a change reaches every instance within moments; connections admitted through an
 * entry that was removed are closed.
 */
export class IpAllowlist {
  private readonly ranges = new Map<string, Cidr[]>();
  /** Connections admitted through the allowlist, by account, with the address they came from. */
  private readonly admitted = new Map<string, Map<ClientSocket, IpAddress>>();
  private readonly pending = new Set<string>();
  private everything = false;
  private timer: NodeJS.Timeout | null = null;
  private reading: Promise<void> | null = null;
  private stopFeed: (() => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
  ) {}

  /** The account whose proven entry holds `address`, or null. Two accounts never hold the same
   * proven range; where a narrower one lies inside another account's wider one, the narrower wins
   * (migration 0031): whoever proved the single address owns it. */
  ownerOf(address: IpAddress | null): string | null {
    if (!address) return null;
    let owner: string | null = null;
    let longest = -1;
    for (const [userId, ranges] of this.ranges) {
      for (const range of ranges) {
        if (range[1] > longest && cidrContains(range, address)) {
          owner = userId;
          longest = range[1];
        }
      }
    }
    return owner;
  }

  /** `client` was admitted as `userId` because of its address: it is closed once that address
   * leaves the account's list. */
  hold(userId: string, client: ClientSocket, address: IpAddress): void {
    let held = this.admitted.get(userId);
    if (!held) {
      held = new Map();
      this.admitted.set(userId, held);
    }
    if (held.has(client)) return;
    held.set(client, address);
    const set = held;
    client.once("close", () => {
      set.delete(client);
      if (set.size === 0 && this.admitted.get(userId) === set) this.admitted.delete(userId);
    });
  }

  async start(): Promise<void> {
    await this.readAll();
    let wasLive = true;
    this.stopFeed = await this.database.listen(CHANGES_CHANNEL, {
      notification: (payload) => {
        if (!payload.startsWith(ALLOWLIST_PREFIX)) return;
        this.pending.add(payload.slice(ALLOWLIST_PREFIX.length));
        this.schedule(COALESCE_MS);
      },
      live: (isLive) => {
        // Changes made while the feed was down were never announced.
        if (isLive && !wasLive) {
          this.everything = true;
          this.schedule(0);
        }
        wasLive = isLive;
      },
    });
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.stopFeed?.();
    await this.reading;
  }

  private schedule(delayMs: number): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.read();
    }, delayMs);
    this.timer.unref();
  }

  private async read(): Promise<void> {
    if (this.reading) {
      await this.reading;
      if (this.pending.size > 0 || this.everything) this.schedule(0);
      return;
    }
    const everything = this.everything;
    const userIds = [...this.pending];
    this.everything = false;
    this.pending.clear();
    this.reading = (everything ? this.readAll() : this.readAccounts(userIds))
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, "could not read changed IP allowlists; retrying");
        if (everything) this.everything = true;
        for (const id of userIds) this.pending.add(id);
        this.schedule(RETRY_MS);
      })
      .finally(() => {
        this.reading = null;
      });
    await this.reading;
  }

  private async readAll(): Promise<void> {
    const rows = await this.database.query<{ user_id: string; range: string }>(
      "SELECT user_id, range::text AS range FROM ip_allowlist WHERE proven_at IS NOT NULL",
    );
    const next = this.group(rows);
    for (const userId of new Set([...this.ranges.keys(), ...next.keys()])) this.set(userId, next.get(userId));
    this.closeDisowned();
  }

  private async readAccounts(userIds: string[]): Promise<void> {
    const rows = await this.database.query<{ user_id: string; range: string }>(
      "SELECT user_id, range::text AS range FROM ip_allowlist WHERE user_id = ANY($1::uuid[]) AND proven_at IS NOT NULL",
      [userIds],
    );
    const next = this.group(rows);
    for (const userId of userIds) this.set(userId, next.get(userId));
    this.closeDisowned();
  }

  private group(rows: { user_id: string; range: string }[]): Map<string, Cidr[]> {
    const byUser = new Map<string, Cidr[]>();
    for (const row of rows) {
      const range = parseCidr(row.range);
      if (!range) continue;
      byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), range]);
    }
    return byUser;
  }

  private set(userId: string, ranges: Cidr[] | undefined): void {
    if (ranges && ranges.length > 0) this.ranges.set(userId, ranges);
    else this.ranges.delete(userId);
  }

  /** Connections whose address no longer belongs to the account that admitted them are closed: the
   * address left its list, or another account proved a narrower range holding it. */
  private closeDisowned(): void {
    for (const [userId, held] of this.admitted) {
      for (const [client, address] of held) {
        if (this.ownerOf(address) !== userId) client.destroy();
      }
    }
  }
}
