import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { SESSION_MINUTES_DEFAULT } from "@bytetoll/contracts";
import { hashSecret } from "@bytetoll/db";
import type { AccountBalance } from "./account-balance.ts";
import { type AccountDirectory, matchesDomain } from "./accounts.ts";
import type { LiveCredentials } from "./credentials-channel.ts";
import type { DomainOverrides } from "./domain-overrides.ts";
import type { EgressGuard, VettedTarget } from "./egress-guard.ts";
import { clientAddress, type IpAllowlist } from "./ip-allowlist.ts";
import {
  isPlausibleUsername,
  parseProxyAuthorization,
  parseUsernameOptions,
  type UsernameOptions,
} from "./proxy-auth.ts";
import { Refusal } from "./refusal.ts";
import type { ProxyType } from "./tariff.ts";
import type { Exit } from "./upstream-health.ts";
import type { UpstreamPool } from "./upstream-pool.ts";
import { accountSession, fillTemplate, type UpstreamSpec } from "./upstreams.ts";

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

/** Credentials as read: the username's options and the password's hash (`authorization`: the
 * Proxy-Authorization header they came in, empty for SOCKS5). */
export interface Presented {
  authorization: string;
  options: UsernameOptions;
  passwordHash: string;
}

/** A connection admitted by its address has no username, so no options: the defaults. */
export const ALLOWLISTED_OPTIONS: UsernameOptions = {
  base: "",
  country: undefined,
  city: undefined,
  sessionId: undefined,
  sessionMinutes: SESSION_MINUTES_DEFAULT,
  smart: false,
};

const wrongCredentials = () => new Refusal("bad_credentials", "The proxy username or password is wrong");

/** Who may go where, and how: credentials first (so the egress guard is no oracle for
 * strangers), then the destination, then the route. */
export class Admission {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly guard: EgressGuard,
    private readonly pools: Record<ProxyType, UpstreamPool>,
    private readonly live: LiveCredentials,
    private readonly overrides: DomainOverrides,
    /** Told each client connection whose credentials name an enabled account with a balance: it
     * is a paying customer's from then on. */
    private readonly onAuthenticated: (client: Duplex) => void = () => {},
    /** Addresses admitted without credentials as the account that listed them. */
    private readonly allowlist: IpAllowlist | null = null,
  ) {}

  /** The last header each client connection presented, read (see `presented`). */
  private readonly lastPresented = new WeakMap<Duplex, Presented>();

  /** `client` is the connection the request came on: it is closed when the credential it
   * presented changes. */
  async admit(
    client: Duplex,
    authorization: string | undefined,
    host: string,
    port: number,
  ): Promise<Admitted> {
    if (authorization === undefined) {
      const owner = await this.allowlisted(client);
      if (owner) return this.route(owner, ALLOWLISTED_OPTIONS, host, port);
    }
    const presented = this.presented(client, authorization);
    const account = await this.authenticate(client, presented);
    return this.route(account, presented.options, host, port);
  }

  /** The account whose IP allowlist holds the client's address (null: none), admitted as by its
   * credentials; the connection is closed once the address leaves the list. */
  async allowlisted(client: Duplex): Promise<AccountBalance | null> {
    const address = clientAddress((client as Partial<Socket>).remoteAddress);
    const userId = this.allowlist?.ownerOf(address) ?? null;
    if (!this.allowlist || !userId || !address) return null;
    const account = await this.accounts.admitOwner(userId);
    this.allowlist.hold(userId, client, address);
    account.holdClient(client);
    this.onAuthenticated(client);
    return account;
  }

  /** Credentials that came without an HTTP header (SOCKS5's username/password step). */
  credentials(username: string, password: string): Presented {
    if (!isPlausibleUsername(username)) throw wrongCredentials();
    return { authorization: "", options: parseUsernameOptions(username), passwordHash: hashSecret(password) };
  }

  /** The account the credentials belong to; `client` is held so that a change of the credential
   * closes it. */
  async authenticate(client: Duplex, { options, passwordHash }: Presented): Promise<AccountBalance> {
    this.live.hold(options.base, client);
    const account = await this.accounts.authenticate(options.base, passwordHash);
    // The username's options were read before (an unknown one is refused there).
    if (!account) throw wrongCredentials();
    account.holdClient(client);
    this.onAuthenticated(client);
    return account;
  }

  /** Where an authenticated request may go, and over which pool and exit. */
  async route(
    account: AccountBalance,
    options: UsernameOptions,
    host: string,
    port: number,
  ): Promise<Admitted> {
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

  /** What the Proxy-Authorization header says, read once per client connection while it sends
   * the same header (a kept-alive client sends it with every request): decoding and hashing it
   * again each time cost more than the rest of the admission. */
  private presented(client: Duplex, authorization: string | undefined): Presented {
    const last = this.lastPresented.get(client);
    if (last && last.authorization === authorization) return last;
    const credentials = parseProxyAuthorization(authorization);
    if (!authorization || !credentials) {
      throw new Refusal(
        "auth_required",
        !authorization
          ? "Proxy credentials are required"
          : /^basic(\s|$)/i.test(authorization)
            ? "The proxy username or password is empty: send Basic base64(username:password)"
            : "Only Basic proxy authorization is supported",
      );
    }
    if (!isPlausibleUsername(credentials.username)) throw wrongCredentials();
    const presented = {
      authorization,
      options: parseUsernameOptions(credentials.username),
      passwordHash: hashSecret(credentials.password),
    };
    this.lastPresented.set(client, presented);
    return presented;
  }
}
