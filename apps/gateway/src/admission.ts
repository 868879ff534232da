import type { Duplex } from "node:stream";
import type { AccountBalance } from "./account-balance.ts";
import { type AccountDirectory, matchesDomain } from "./accounts.ts";
import type { LiveCredentials } from "./credentials-channel.ts";
import type { EgressGuard, VettedTarget } from "./egress-guard.ts";
import { isPlausibleUsername, parseProxyAuthorization, parseUsernameOptions } from "./proxy-auth.ts";
import { Refusal } from "./refusal.ts";
import type { ProxyType } from "./tariff.ts";
import type { UpstreamPool, UpstreamSpec } from "./upstreams.ts";

export interface Admitted {
  account: AccountBalance;
  target: VettedTarget;
  proxyType: ProxyType;
  upstream: UpstreamSpec;
}

const wrongCredentials = () => new Refusal("bad_credentials", "The proxy username or password is wrong");

/** Who may go where, and how: credentials first (so the egress guard is no oracle for
 * strangers), then the destination, then the route. */
export class Admission {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly guard: EgressGuard,
    private readonly pools: Record<ProxyType, UpstreamPool>,
    private readonly live: LiveCredentials,
  ) {}

  /** `client` is the connection the request came on: it is closed when the credential it
   * presented changes. */
  async admit(
    client: Duplex,
    authorization: string | undefined,
    host: string,
    port: number,
  ): Promise<Admitted> {
    const credentials = parseProxyAuthorization(authorization);
    if (!credentials) {
      throw new Refusal(
        "auth_required",
        authorization ? "Only Basic proxy authorization is supported" : "Proxy credentials are required",
      );
    }
    if (!isPlausibleUsername(credentials.username)) throw wrongCredentials();
    const options = parseUsernameOptions(credentials.username);
    this.live.hold(options.base, client);
    const account = await this.accounts.authenticate(options.base, credentials.password);
    if (!account) {
      if (options.base.includes("-") && !(await this.accounts.exists(options.base))) {
        throw new Refusal(
          "bad_username_option",
          "Unknown username option: use {username}[-session-{8 letters or digits}][-routing-smart]",
        );
      }
      throw wrongCredentials();
    }
    const target = await this.guard.vet(host, port);
    const proxyType: ProxyType =
      options.smart && matchesDomain(target.domain, await this.accounts.datacenterDomains(account))
        ? "dc"
        : "mobile";
    const sessionKey = options.sessionId === undefined ? undefined : `${account.userId}:${options.sessionId}`;
    return { account, target, proxyType, upstream: this.pools[proxyType].pick(sessionKey) };
  }
}
