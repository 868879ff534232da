import type { AllowedDomains } from "@bytetoll/contracts";
import type { ClientSocket } from "../base/native-socket.ts";
import type { ProxyType } from "../base/tariff.ts";
import { Tariff } from "../base/tariff.ts";
import { AccountBalance, type LiveFlow } from "./account-balance.ts";
import type { Leases } from "./lease.ts";

/** A sub-user's limit counts relayed bytes, mobile and datacenter alike. */
const RELAYED_BYTES = new Tariff({ pricePerGbUsd: 1, dcPricePerGbUsd: 1 });

/**
 * A sub-user as this gateway instance sees it: the lease it holds of the sub-user's allowance
 * (what is left of its limit this period, reserved like a balance lease, lease.ts), and
 * the owner's balance it draws on. It stands in for the owner wherever an account is billed:
 * `userId` is the owner's, every byte is charged to both, every flow and client connection is
 * held by both, so the owner's balance running out or the owner being disabled cuts the
 * sub-user's connections, and the sub-user's limit cuts only its own.
 */
export class SubuserAllowance extends AccountBalance {
  /** The sites the sub-user may reach (null: whatever its account may), as last read with its
   * credential: a change is announced as the credential's, so it is read again. */
  allowedDomains: AllowedDomains | null = null;

  constructor(
    readonly subuserId: string,
    readonly owner: AccountBalance,
  ) {
    super(owner.userId, RELAYED_BYTES);
  }

  /** A sub-user may run past its lease by its last grant only, however slow a renewal is: that
   * grant is at most half of what was left of the limit, which is the bound docs/product.md
   * states (instances × half the limit + one read each way per connection). */
  protected override get renewalGrace(): boolean {
    return false;
  }

  override charge(bytes: number, proxyType: ProxyType): void {
    super.charge(bytes, proxyType);
    this.owner.charge(bytes, proxyType);
  }

  override get disabled(): boolean {
    return this.owner.disabled;
  }

  override holdClient(client: ClientSocket): void {
    super.holdClient(client);
    this.owner.holdClient(client);
  }

  override addFlow(flow: LiveFlow): void {
    super.addFlow(flow);
    this.owner.addFlow(flow);
  }

  override removeFlow(flow: LiveFlow): void {
    super.removeFlow(flow);
    this.owner.removeFlow(flow);
  }

  override touch(): void {
    super.touch();
    this.owner.touch();
  }
}

/** This instance's leases of sub-users' allowances (lease.ts, SUBUSER_ALLOWANCE). */
export type SubuserLeases = Leases<SubuserAllowance>;
