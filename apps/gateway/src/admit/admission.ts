import type { Socket } from "node:net";
import { SESSION_MINUTES_DEFAULT } from "@bytetoll/contracts";
import type { EgressGuard, VettedTarget } from "@bytetoll/egress";
import { accountSession, fillTemplate, Refusal, type RefusalCode, type UpstreamSpec } from "@bytetoll/egress";
import type { ClientSocket } from "../base/native-socket.ts";
import type { ProxyType } from "../base/tariff.ts";
import type { DestinationPolicy } from "../route/destination-policy.ts";
import type { DomainOverrides } from "../route/domain-overrides.ts";
import type { Exit } from "../route/upstream-health.ts";
import type { UpstreamPool } from "../route/upstream-pool.ts";
import type { AccountBalance } from "./account-balance.ts";
import { type AccountDirectory, matchesDomain } from "./accounts.ts";
import type { LiveCredentials } from "./credentials-channel.ts";
import { clientAddress, type IpAllowlist } from "./ip-allowlist.ts";
import { type Presented, PresentedCredentials, wrongCredentials } from "./presented-credentials.ts";
import type { UsernameOptions } from "./proxy-auth.ts";
import { SubuserAllowance } from "./subuser-allowance.ts";

export interface Admitted {
  account: AccountBalance;
  target: VettedTarget;
  proxyType: ProxyType;
  upstream: UpstreamSpec;
  /** The exit `upstream` is, with its health and figures on this instance. */
  exit: Exit;
  /** A sticky session's exit went down and it was given another: the client is told. */
  sessionMoved: boolean;
}

/** Who the client says it is, as its front-end read it. */
export type Credentials =
  /** HTTP: the request's Proxy-Authorization header (undefined: none was sent, so the client's
   * address may stand for it, if it is on an account's IP allowlist). */
  | { kind: "header"; authorization: string | undefined }
  /** SOCKS5's username/password step (RFC 1929). */
  | { kind: "userpass"; username: string; password: string }
  /** SOCKS5 without authentication: only the client's address, which must be on an allowlist. */
  | { kind: "address" };

/** Where the client asks to go. */
export interface Destination {
  host: string;
  port: number;
}

/** Asks the client where it goes, once its credentials are settled (SOCKS5 answers them before
 * the client sends its request); null when the front-end answered the client itself. */
export type AskDestination = () => Promise<Destination | null>;

/** Refusals of the credentials themselves, which a protocol that answers the credentials on
 * their own (SOCKS5) answers there; any other refusal answers the request. */
export const CREDENTIAL_REFUSALS: ReadonlySet<RefusalCode> = new Set([
  "auth_required",
  "bad_credentials",
  "bad_username_option",
]);

interface Identity {
  account: AccountBalance;
  options: UsernameOptions;
}

/** A connection admitted by its address has no username, so no options: the defaults. */
const ALLOWLISTED_OPTIONS: UsernameOptions = {
  base: "",
  country: undefined,
  city: undefined,
  sessionId: undefined,
  sessionMinutes: SESSION_MINUTES_DEFAULT,
  smart: false,
};

/** Who may go where, and how: credentials first (so the egress guard is no oracle for
 * strangers), then the destination (the sub-user's list and the operator's rules before any DNS
 * look-up, then the egress guard), then the route. */
export class Admission {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly guard: EgressGuard,
    private readonly pools: Record<ProxyType, UpstreamPool>,
    private readonly live: LiveCredentials,
    private readonly overrides: DomainOverrides,
    private readonly destinations: DestinationPolicy,
    /** Told each client connection whose credentials name an enabled account with a balance: it
     * is a paying customer's from then on. */
    private readonly onAuthenticated: (client: ClientSocket) => void = () => {},
    /** Addresses admitted without credentials as the account that listed them. */
    private readonly allowlist: IpAllowlist | null = null,
  ) {}

  private readonly presented = new PresentedCredentials();

  /**
   * The one admission of every front-end: who the client is (its address on an allowlist, or its
   * credentials; then its account, balance and sub-user limit), then where it may go and how.
   * `client` is the connection the request came on: it is closed when the credential it
   * presented changes. A front-end that asks for the destination once the credentials are
   * settled (`ask`) hears of a refusal of the credentials before it asks; a refusal of the
   * account itself waits for the request and answers it. Null: the front-end answered itself.
   */
  async admit(client: ClientSocket, credentials: Credentials, destination: Destination): Promise<Admitted>;
  async admit(client: ClientSocket, credentials: Credentials, ask: AskDestination): Promise<Admitted | null>;
  async admit(
    client: ClientSocket,
    credentials: Credentials,
    destination: Destination | AskDestination,
  ): Promise<Admitted | null> {
    let identity: Identity;
    try {
      identity = await this.identify(client, credentials);
    } catch (error) {
      if (typeof destination !== "function") throw error;
      if (!(error instanceof Refusal) || CREDENTIAL_REFUSALS.has(error.code)) throw error;
      if ((await destination()) === null) return null;
      throw error;
    }
    const where = typeof destination === "function" ? await destination() : destination;
    if (where === null) return null;
    return this.route(identity.account, identity.options, where.host, where.port);
  }

  /** The account the client is admitted as, and its username's options. */
  private async identify(client: ClientSocket, credentials: Credentials): Promise<Identity> {
    if (credentials.kind === "userpass") {
      const presented = this.presented.fromUserPass(credentials.username, credentials.password);
      return { account: await this.authenticate(client, presented), options: presented.options };
    }
    if (credentials.kind === "address" || credentials.authorization === undefined) {
      const owner = await this.allowlisted(client);
      if (owner) return { account: owner, options: ALLOWLISTED_OPTIONS };
      if (credentials.kind === "address")
        throw new Refusal("auth_required", "Proxy credentials are required");
    }
    const presented = this.presented.fromHeader(credentials.authorization);
    return { account: await this.authenticate(client, presented), options: presented.options };
  }

  /** The account whose IP allowlist holds the client's address (null: none), admitted as by its
   * credentials; the connection is closed once the address leaves the list. */
  private async allowlisted(client: ClientSocket): Promise<AccountBalance | null> {
    const address = clientAddress((client as Partial<Socket>).remoteAddress);
    const userId = this.allowlist?.ownerOf(address) ?? null;
    if (!this.allowlist || !userId || !address) return null;
    const account = await this.accounts.admitOwner(userId);
    this.allowlist.hold(userId, client, address);
    account.holdClient(client);
    this.onAuthenticated(client);
    return account;
  }

  /** The account the credentials belong to; `client` is held so that a change of the credential
   * closes it. */
  private async authenticate(
    client: ClientSocket,
    { options, passwordHash }: Presented,
  ): Promise<AccountBalance> {
    this.live.hold(options.base, client);
    const account = await this.accounts.authenticate(options.base, passwordHash);
    // The username's options were read before (an unknown one is refused there).
    if (!account) throw wrongCredentials();
    account.holdClient(client);
    this.onAuthenticated(client);
    return account;
  }

  /** Where an authenticated request may go, and over which pool and exit. */
  private async route(
    account: AccountBalance,
    options: UsernameOptions,
    host: string,
    port: number,
  ): Promise<Admitted> {
    // Before the guard resolves the name: a refused target is never looked up, nor dialled.
    const subuser = account instanceof SubuserAllowance ? account : null;
    this.destinations.check(
      { userId: account.userId, subuserId: subuser?.subuserId ?? null },
      subuser?.allowedDomains ?? null,
      this.guard.nameOf(host),
      port,
    );
    const target = await this.guard.vet(host, port);
    // Disabled while the lease or the destination was being checked.
    if (account.disabled) throw new Refusal("account_disabled", "This account is disabled");
    // Under -routing-smart the operator's override of the domain decides for every customer;
    // without one, the customer's own rules do.
    const override = options.smart ? this.overrides.routeOf(target.domain) : null;
    const proxyType: ProxyType =
      override !== null
        ? override === "datacenter"
          ? "dc"
          : "mobile"
        : options.smart && matchesDomain(target.domain, await this.accounts.datacenterDomains(account))
          ? "dc"
          : "mobile";
    const session =
      options.sessionId === undefined ? undefined : accountSession(account.userId, options.sessionId);
    const picked = this.pools[proxyType].choose({
      sessionKey: session,
      country: options.country,
      sessionMinutes: options.sessionMinutes,
    });
    if (!picked) {
      throw new Refusal(
        "no_exit_in_country",
        `No ${proxyType === "dc" ? "datacenter" : "mobile"} exit serves country '${options.country?.toLowerCase()}'`,
      );
    }
    const upstream = fillTemplate(picked.exit.spec, {
      country: options.country,
      city: options.city,
      session,
      sessionMinutes: options.sessionMinutes,
    });
    return { account, target, proxyType, upstream, exit: picked.exit, sessionMoved: picked.moved };
  }
}
