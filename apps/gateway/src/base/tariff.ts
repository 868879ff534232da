import { balanceBytesFor, usdToMicros } from "@bytetoll/contracts";

export type ProxyType = "mobile" | "dc";

export interface Prices {
  pricePerGbUsd: number;
  dcPricePerGbUsd: number;
}

/** Bytes of one proxy type that one user owes for, summed over a batch. */
export interface MeteredBytes {
  userId: string;
  proxyType: ProxyType;
  bytes: number;
}

/**
 * What relayed bytes cost in premium balance: mobile bytes 1:1, datacenter bytes at
 * DC price / price. The live estimate (a float per chunk, to cut an account off in time) and the
 * ledger debit (exact integers per batch) come from the same two prices.
 */
export class Tariff {
  private readonly price: number;
  private readonly dcPrice: number;
  private readonly dcRatio: number;

  constructor(prices: Prices) {
    this.price = usdToMicros(prices.pricePerGbUsd);
    this.dcPrice = usdToMicros(prices.dcPricePerGbUsd);
    this.dcRatio = prices.dcPricePerGbUsd / prices.pricePerGbUsd;
  }

  /** The price per GB each proxy type's bytes are billed at, in micro-dollars. */
  get pricesMicros(): Record<ProxyType, number> {
    return { mobile: this.price, dc: this.dcPrice };
  }

  /** Balance bytes these relayed bytes use up, as the meter counts them live. */
  estimate(bytes: number, proxyType: ProxyType): number {
    return proxyType === "mobile" ? bytes : bytes * this.dcRatio;
  }

  /** Whole balance bytes each user owes for a batch: datacenter bytes are converted by the money
   * module's rule (rounded up to a whole byte) once per batch and user, in integers. */
  debits(rows: Iterable<MeteredBytes>): Map<string, number> {
    const totals = new Map<string, Record<ProxyType, bigint>>();
    for (const row of rows) {
      const total = totals.get(row.userId) ?? { mobile: 0n, dc: 0n };
      total[row.proxyType] += BigInt(row.bytes);
      totals.set(row.userId, total);
    }
    const debits = new Map<string, number>();
    for (const [userId, total] of totals) {
      const dc = balanceBytesFor(total.dc, this.dcPrice, this.price);
      debits.set(userId, Number(total.mobile + dc));
    }
    return debits;
  }

  /** The live estimate of the same rows per user: what the meter added up for them. */
  estimates(rows: Iterable<MeteredBytes>): Map<string, number> {
    const estimates = new Map<string, number>();
    for (const row of rows) {
      estimates.set(row.userId, (estimates.get(row.userId) ?? 0) + this.estimate(row.bytes, row.proxyType));
    }
    return estimates;
  }
}
