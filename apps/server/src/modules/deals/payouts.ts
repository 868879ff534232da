import { type Payout, payoutHashProblem } from "@bytetoll/contracts";
import type { Tx } from "@bytetoll/db";
import { AppError, notFound } from "../../errors.ts";
import { toPayoutView } from "./deal-view.ts";
import type { DepositRepository } from "./deposit-repository.ts";
import type { DealsRepository } from "./repository.ts";

const PAYOUT_NOT_FOUND = "Payout not found";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs inside an action's transaction with what it changed, so its record commits with it. */
type RecordPayout = (tx: Tx, after: Payout) => Promise<void>;

interface Deps {
  repository: Pick<DealsRepository, "transaction">;
  deposits: Pick<DepositRepository, "listPayouts" | "markPayoutSent" | "markPayoutFailed" | "findPayout">;
}

/** The operator's side of payouts: list them, mark one sent (with its hash) or failed. */
export function createPayouts({ repository, deposits }: Deps) {
  async function payoutNotPending(id: string): Promise<AppError> {
    const existing = UUID.test(id) ? await deposits.findPayout(id) : undefined;
    if (!existing) return notFound(PAYOUT_NOT_FOUND);
    return new AppError(409, `This payout is ${existing.status}, not pending.`, "payout_not_pending");
  }

  return {
    async payouts(filter: { status?: string; userId?: string }): Promise<Payout[]> {
      return (await deposits.listPayouts({ ...filter, limit: 500 })).map(toPayoutView);
    },

    /** pending → sent with its transaction hash, which must be of the payout wallet's chain
     * family (the customer is shown it as proof, with an explorer link): the console and the CLI
     * alike are refused anything else with a 400 that changes nothing. */
    async payoutSent(id: string, txHash: string, record?: RecordPayout): Promise<Payout> {
      const existing = UUID.test(id) ? await deposits.findPayout(id) : undefined;
      const problem = existing ? payoutHashProblem(existing.walletAddress, txHash) : null;
      if (problem) throw new AppError(400, problem, "bad_tx_hash");
      const row = UUID.test(id)
        ? await repository.transaction(async (tx) => {
            const sent = await deposits.markPayoutSent(tx, id, txHash);
            if (sent) await record?.(tx, toPayoutView(sent));
            return sent;
          })
        : undefined;
      if (row) return toPayoutView(row);
      throw await payoutNotPending(id);
    },

    /** pending → failed: the deposits it carried are owed again (withdrawable with an address). */
    async payoutFailed(id: string, record?: RecordPayout): Promise<Payout> {
      const row = UUID.test(id)
        ? await repository.transaction(async (tx) => {
            const failed = await deposits.markPayoutFailed(tx, id);
            if (failed) await record?.(tx, toPayoutView(failed));
            return failed;
          })
        : undefined;
      if (row) return toPayoutView(row);
      throw await payoutNotPending(id);
    },
  };
}
