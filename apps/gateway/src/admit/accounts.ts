import { AllowedDomains } from "@bytetoll/contracts";
import { type Database, hashesEqual } from "@bytetoll/db";
import { Refusal } from "@bytetoll/egress";
import type { Tariff } from "../base/tariff.ts";
import { AccountBalance } from "./account-balance.ts";
import type { BalanceLeases } from "./lease.ts";
import type { SubuserLeases } from "./subuser-allowance.ts";
import { SubuserAllowance } from "./subuser-allowance.ts";

interface CredentialRow {
  user_id: string | null;
  password_hash: string;
  disabled: boolean | null;
  subuser_id: string | null;
  subuser_enabled: boolean;
  allowed_domains: string[] | null;
}

interface CachedCredential {
  userId: string | null;
  passwordHash: string;
  /** The sub-user the username belongs to (null: the account's own credentials). */
  subuserId: string | null;
  subuserEnabled: boolean;
  allowedDomains: AllowedDomains | null;
  readAt: number;
}

/** One lookup for both kinds of proxy username (they share one namespace, migration 0023). */
const CREDENTIAL_QUERY = `
  SELECT c.user_id, c.password_hash, u.disabled_at IS NOT NULL AS disabled,
         NULL::uuid AS subuser_id, true AS subuser_enabled, NULL::text[] AS allowed_domains
    FROM proxy_credentials c LEFT JOIN users u ON u.id = c.user_id WHERE c.username = $1
  UNION ALL
  SELECT s.user_id, s.password_hash, u.disabled_at IS NOT NULL, s.id, s.enabled, s.allowed_domains
    FROM subusers s JOIN users u ON u.id = s.user_id WHERE s.username = $1`;

/** Credential and routing-rule lookups with a short cache, so the hot path does not query the
 * database per request while a changed password is seen within seconds; the balance is spent
 * through byte leases (lease.ts). While the database is unreachable, a known credential keeps
 * being served from the cache. */
export class AccountDirectory {
  private readonly credentials = new Map<string, CachedCredential | null>();
  private readonly credentialReads = new Map<string, Promise<CachedCredential | null>>();
  private readonly accounts = new Map<string, AccountBalance>();
  private readonly subusers = new Map<string, SubuserAllowance>();
  /** Domains each user sends over datacenter, by user id, with when they were read. */
  private readonly datacenterRules = new Map<string, { domains: string[]; readAt: number }>();

  constructor(
    private readonly database: Database,
    private readonly ttlMs: number,
    private readonly leases: BalanceLeases,
    private readonly tariff: Tariff,
    private readonly subuserLeases: SubuserLeases,
  ) {}

  /** Every account this instance has seen, by user id. */
  get known(): ReadonlyMap<string, AccountBalance> {
    return this.accounts;
  }

  /** Bumped by forget(): a credential read in flight then may hold the old row, so its answer
   * is not cached. */
  private forgets = 0;
  /** Numbers the reads of users.disabled_at, so an older read never undoes a newer one. */
  private disabledReads = 0;

  /** The credential changed: the next request reads it again, never joining an older read. */
  forget(username: string): void {
    this.credentials.delete(username);
    this.credentialReads.delete(username);
    this.forgets += 1;
  }

  /** Every sub-user this instance has served, by sub-user id. */
  get knownSubusers(): ReadonlyMap<string, SubuserAllowance> {
    return this.subusers;
  }

  subuserFor(subuserId: string, ownerId: string): SubuserAllowance {
    let allowance = this.subusers.get(subuserId);
    if (!allowance) {
      allowance = new SubuserAllowance(subuserId, this.accountFor(ownerId));
      this.subusers.set(subuserId, allowance);
    }
    return allowance;
  }

  accountFor(userId: string): AccountBalance {
    let account = this.accounts.get(userId);
    if (!account) {
      account = new AccountBalance(userId, this.tariff);
      this.accounts.set(userId, account);
    }
    return account;
  }

  /** The user's routing rules changed: the next request reads them again. */
  forgetRoutingRules(userId: string): void {
    this.datacenterRules.delete(userId);
  }

  /** The username is known to exist (or not) for ttlMs; unknown names are cached as null too,
   * so guessing does not turn into one query per attempt. */
  private async credential(username: string): Promise<CachedCredential | null> {
    const cached = this.credentials.get(username);
    if (cached !== undefined && (cached === null ? 0 : cached.readAt) + this.ttlMs > Date.now())
      return cached;
    const inFlight = this.credentialReads.get(username);
    if (inFlight) return inFlight;
    const read = this.readCredential(username)
      .catch((error: unknown) => {
        if (cached) return cached;
        throw error;
      })
      .finally(() => this.credentialReads.delete(username));
    this.credentialReads.set(username, read);
    return read;
  }

  private async readCredential(username: string): Promise<CachedCredential | null> {
    const startedAt = Date.now();
    const forgets = this.forgets;
    const readSeq = this.disabledReads++;
    const [row] = await this.database.query<CredentialRow>(CREDENTIAL_QUERY, [username]);
    if (row?.user_id) this.accountFor(row.user_id).setDisabled(row.disabled === true, readSeq);
    const entry = row
      ? {
          userId: row.user_id,
          passwordHash: row.password_hash,
          subuserId: row.subuser_id,
          subuserEnabled: row.subuser_enabled,
          allowedDomains: row.allowed_domains ? new AllowedDomains(row.allowed_domains) : null,
          readAt: startedAt,
        }
      : null;
    if (forgets !== this.forgets) return entry;
    this.credentials.set(username, entry);
    if (!entry) {
      // Negative entries live for one TTL as well.
      setTimeout(
        () => this.credentials.get(username) === null && this.credentials.delete(username),
        this.ttlMs,
      ).unref();
    }
    return entry;
  }

  /** Does the username exist at all (tells a bad option apart from a bad name). */
  async exists(username: string): Promise<boolean> {
    return (await this.credential(username)) !== null;
  }

  /** Checks the password (`passwordHash`: its hashSecret) and that the account holds (or can
   * lease) balance to relay with; returns the account to bill or throws a Refusal. */
  async authenticate(username: string, passwordHash: string): Promise<AccountBalance | null> {
    const credential = await this.credential(username);
    if (!credential || !hashesEqual(passwordHash, credential.passwordHash)) return null;
    if (credential.userId === null) {
      throw new Refusal(
        "balance_exhausted",
        "These temporary credentials have no data balance yet: sign up and add data to use them",
      );
    }
    const account = this.accountFor(credential.userId);
    if (account.disabled) throw new Refusal("account_disabled", "This account is disabled");
    if (credential.subuserId !== null && !credential.subuserEnabled) {
      throw new Refusal("subuser_disabled", "This sub-user is disabled by its account");
    }
    if (!(await this.leases.admit(account))) {
      throw new Refusal("balance_exhausted", "Your data balance is used up: add data to continue");
    }
    if (credential.subuserId === null) return account;
    // A sub-user relays on the owner's balance and within its own limit.
    const allowance = this.subuserFor(credential.subuserId, credential.userId);
    allowance.allowedDomains = credential.allowedDomains;
    if (!(await this.subuserLeases.admit(allowance))) {
      throw new Refusal("subuser_limit_reached", "This sub-user's data limit for the period is reached");
    }
    return allowance;
  }

  /** The account a connection from an address on its IP allowlist belongs to: enabled and
   * holding (or able to lease) balance, as for its credentials; else a Refusal. */
  async admitOwner(userId: string): Promise<AccountBalance> {
    const known = this.accounts.has(userId);
    const account = this.accountFor(userId);
    if (!known) await this.refreshDisabled([userId]);
    if (account.disabled) throw new Refusal("account_disabled", "This account is disabled");
    if (!(await this.leases.admit(account))) {
      throw new Refusal("balance_exhausted", "Your data balance is used up: add data to continue");
    }
    return account;
  }

  /** Reads whether these known accounts are disabled (the change feed announced a change to
   * them, or it reconnected): disabling one closes its connections, enabling lets it in again. */
  async refreshDisabled(userIds: readonly string[]): Promise<void> {
    const known = userIds.filter((id) => this.accounts.has(id));
    if (known.length === 0) return;
    const readSeq = this.disabledReads++;
    const rows = await this.database.query<{ id: string; disabled: boolean }>(
      "SELECT id, disabled_at IS NOT NULL AS disabled FROM users WHERE id = ANY($1::uuid[])",
      [known],
    );
    for (const row of rows) this.accountFor(row.id).setDisabled(row.disabled, readSeq);
  }

  /** Domains (and their subdomains) the user sends over datacenter with -routing-smart. */
  async datacenterDomains(account: AccountBalance): Promise<string[]> {
    const cached = this.datacenterRules.get(account.userId);
    if (cached && cached.readAt + this.ttlMs > Date.now()) return cached.domains;
    const readAt = Date.now();
    let rows: { rule: string }[];
    try {
      rows = await this.database.query<{ rule: string }>(
        "SELECT rule FROM routing_rules WHERE user_id = $1 AND service = 'datacenter'",
        [account.userId],
      );
    } catch (error) {
      if (cached) return cached.domains;
      throw error;
    }
    const domains = rows.map((row) =>
      row.rule
        .trim()
        .toLowerCase()
        .replace(/^\*?\.+/, "")
        .replace(/\.+$/, ""),
    );
    this.datacenterRules.set(account.userId, { domains, readAt });
    return domains;
  }
}

/** A rule for example.com covers example.com and every name below it, never notexample.com. */
export function matchesDomain(host: string, domains: string[]): boolean {
  return domains.some((domain) => domain !== "" && (host === domain || host.endsWith(`.${domain}`)));
}
