import type { Database } from "@bytetoll/db";
import { hashesEqual, hashSecret } from "@bytetoll/db";
import type { Flow } from "./meter.ts";
import { Refusal } from "./refusal.ts";

/** What the gateway knows about one paying user between database reads. */
export interface Account {
  userId: string;
  /** Balance as last read from the database or returned by our own flush. */
  balance: number;
  /** Debit of bytes metered here but not yet inside `balance` (unflushed or in flight). */
  uncommitted: number;
  balanceReadAt: number;
  /** Bumped whenever a flush sets `balance`, so an older concurrent read cannot overwrite it. */
  generation: number;
  flows: Set<Flow>;
  datacenterRules: { domains: string[]; readAt: number } | null;
}

export function remainingOf(account: Account): number {
  return account.balance - account.uncommitted;
}

interface CredentialRow {
  user_id: string | null;
  password_hash: string;
  balance_bytes: string | number | null;
}

interface CachedCredential {
  userId: string | null;
  passwordHash: string;
  readAt: number;
}

/** Credential, balance and routing-rule lookups with a short cache, so the hot path does not
 * query the database per request while a changed password or a top-up is seen within seconds. */
export class AccountDirectory {
  private readonly credentials = new Map<string, CachedCredential | null>();
  private readonly credentialReads = new Map<string, Promise<CachedCredential | null>>();
  private readonly accounts = new Map<string, Account>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs: number,
  ) {}

  forget(username: string): void {
    this.credentials.delete(username);
  }

  accountFor(userId: string): Account {
    let account = this.accounts.get(userId);
    if (!account) {
      account = {
        userId,
        balance: 0,
        uncommitted: 0,
        balanceReadAt: 0,
        generation: 0,
        flows: new Set(),
        datacenterRules: null,
      };
      this.accounts.set(userId, account);
    }
    return account;
  }

  /** The username is known to exist (or not) for ttlMs; unknown names are cached as null too,
   * so guessing does not turn into one query per attempt. */
  private async credential(username: string): Promise<CachedCredential | null> {
    const cached = this.credentials.get(username);
    if (cached !== undefined && (cached === null ? 0 : cached.readAt) + this.ttlMs > Date.now())
      return cached;
    const inFlight = this.credentialReads.get(username);
    if (inFlight) return inFlight;
    const read = this.readCredential(username).finally(() => this.credentialReads.delete(username));
    this.credentialReads.set(username, read);
    return read;
  }

  private async readCredential(username: string): Promise<CachedCredential | null> {
    const startedAt = Date.now();
    const [row] = await this.database.query<CredentialRow>(
      `SELECT c.user_id, c.password_hash, u.balance_bytes
         FROM proxy_credentials c LEFT JOIN users u ON u.id = c.user_id
        WHERE c.username = $1`,
      [username],
    );
    const entry = row ? { userId: row.user_id, passwordHash: row.password_hash, readAt: startedAt } : null;
    this.credentials.set(username, entry);
    if (!entry) {
      // Negative entries live for one TTL as well.
      setTimeout(
        () => this.credentials.get(username) === null && this.credentials.delete(username),
        this.ttlMs,
      ).unref();
    }
    if (row?.user_id)
      this.applyBalanceRead(this.accountFor(row.user_id), Number(row.balance_bytes ?? 0), startedAt);
    return entry;
  }

  private applyBalanceRead(account: Account, balance: number, startedAt: number, generation?: number): void {
    if (generation !== undefined && generation !== account.generation) return;
    if (startedAt < account.balanceReadAt) return;
    account.balance = balance;
    account.balanceReadAt = startedAt;
  }

  private readonly balanceReads = new Map<string, Promise<void>>();

  /** Concurrent requests of one account share one read. */
  private refreshBalance(account: Account): Promise<void> {
    const inFlight = this.balanceReads.get(account.userId);
    if (inFlight) return inFlight;
    const read = this.readBalance(account).finally(() => this.balanceReads.delete(account.userId));
    this.balanceReads.set(account.userId, read);
    return read;
  }

  private async readBalance(account: Account): Promise<void> {
    const startedAt = Date.now();
    const generation = account.generation;
    const [row] = await this.database.query<{ balance_bytes: string | number }>(
      "SELECT balance_bytes FROM users WHERE id = $1",
      [account.userId],
    );
    this.applyBalanceRead(account, Number(row?.balance_bytes ?? 0), startedAt, generation);
  }

  /** Re-reads the balance of accounts that have live connections and a stale balance, so a
   * balance used up elsewhere (another gateway instance, an operator adjustment) also ends them. */
  async refreshLiveBalances(): Promise<Account[]> {
    const stale = [...this.accounts.values()].filter(
      (a) => a.flows.size > 0 && a.balanceReadAt + this.ttlMs <= Date.now(),
    );
    if (stale.length === 0) return [];
    const startedAt = Date.now();
    const generations = new Map(stale.map((a) => [a.userId, a.generation]));
    const rows = await this.database.query<{ id: string; balance_bytes: string | number }>(
      "SELECT id, balance_bytes FROM users WHERE id = ANY($1::uuid[])",
      [stale.map((a) => a.userId)],
    );
    for (const row of rows) {
      const account = this.accountFor(row.id);
      this.applyBalanceRead(account, Number(row.balance_bytes), startedAt, generations.get(row.id));
    }
    return stale;
  }

  /** Does the username exist at all (tells a bad option apart from a bad name). */
  async exists(username: string): Promise<boolean> {
    return (await this.credential(username)) !== null;
  }

  /** Checks the password and the balance; returns the account to bill or throws a Refusal. */
  async authenticate(username: string, password: string): Promise<Account | null> {
    const credential = await this.credential(username);
    if (!credential || !hashesEqual(hashSecret(password), credential.passwordHash)) return null;
    if (credential.userId === null) {
      throw new Refusal(
        "balance_exhausted",
        "These temporary credentials have no data balance yet: sign up and add data to use them",
      );
    }
    const account = this.accountFor(credential.userId);
    if (account.balanceReadAt + this.ttlMs <= Date.now()) await this.refreshBalance(account);
    if (remainingOf(account) <= 0) {
      throw new Refusal("balance_exhausted", "Your data balance is used up: add data to continue");
    }
    return account;
  }

  /** Domains (and their subdomains) the user sends over datacenter with -routing-smart. */
  async datacenterDomains(account: Account): Promise<string[]> {
    const cached = account.datacenterRules;
    if (cached && cached.readAt + this.ttlMs > Date.now()) return cached.domains;
    const readAt = Date.now();
    const rows = await this.database.query<{ rule: string }>(
      "SELECT rule FROM routing_rules WHERE user_id = $1 AND service = 'datacenter'",
      [account.userId],
    );
    const domains = rows.map((row) =>
      row.rule
        .trim()
        .toLowerCase()
        .replace(/^\*?\.+/, "")
        .replace(/\.+$/, ""),
    );
    account.datacenterRules = { domains, readAt };
    return domains;
  }
}

/** A rule for example.com covers example.com and every name below it, never notexample.com. */
export function matchesDomain(host: string, domains: string[]): boolean {
  return domains.some((domain) => domain !== "" && (host === domain || host.endsWith(`.${domain}`)));
}
