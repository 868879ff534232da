import { parseArgs } from "node:util";
import { createDealRequest, dealPriceRefusal, PAYMENT_STATUSES, PAYOUT_STATUSES } from "@bytetoll/contracts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import {
  type AdminService,
  appendAudit,
  auditDealChange,
  auditPayoutChange,
  CLI_ACTOR,
} from "../modules/admin/index.ts";
import type { DealsService } from "../modules/deals/index.ts";
import type { Settlement } from "../modules/payments/index.ts";

export const USAGE = `Usage: npm run admin -- <command>

  credit <email> <gb> [note…]        add (or with a negative gb, remove) data, with a note
  accounts [--email <text>]          list accounts (newest first)
  orders [--email <text>] [--status <status>]
                                     list orders (newest first)
  orders:pay <orderId> [amount_usd]  sandbox: mark an order paid (or partly paid)
  deals                              list every deal (newest first)
  deals:create --type flash_sale|group_buy --title <text> --price <usd_per_gb>
               --target <gb> --end <iso> [--start <iso>] [--description <text>]
                                     create a deal (live at once when its start has passed)
  deals:cancel <dealId>              cancel a pending or live deal (a group buy refunds)
  payouts [--status pending|sent|failed]
                                     list payouts of withdrawn and refunded deposits
  payouts:sent <payoutId> <txHash>   record that a pending payout was sent
  payouts:failed <payoutId>          record that it failed (its deposit is owed again)

Reads the same environment as the server (DATABASE_URL, DATA_DIR, …).`;

export class UsageError extends Error {}

export interface CommandContext {
  config: Config;
  admin: AdminService;
  settlement: Pick<Settlement, "paySandbox">;
  deals: DealsService;
}

const number = (text: string | undefined, name: string) => {
  const value = Number(text);
  if (text === undefined || text.trim() === "" || !Number.isFinite(value)) {
    throw new UsageError(`${name} must be a number`);
  }
  return value;
};

function listOptions(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      status: { type: "string" },
      page: { type: "string" },
      "per-page": { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  if (values.status && !(PAYMENT_STATUSES as readonly string[]).includes(values.status)) {
    throw new UsageError(`--status must be one of ${PAYMENT_STATUSES.join(", ")}`);
  }
  return {
    email: values.email,
    status: values.status as (typeof PAYMENT_STATUSES)[number] | undefined,
    page: values.page ? number(values.page, "--page") : 1,
    per_page: values["per-page"] ? number(values["per-page"], "--per-page") : 50,
  };
}

/** deals:create's options, checked by the same schema and price rule as POST /admin/deals. */
function dealFromArgs(args: string[], listPriceUsd: number) {
  const { values, positionals } = parseArgs({
    args,
    options: {
      type: { type: "string" },
      title: { type: "string" },
      description: { type: "string" },
      price: { type: "string" },
      target: { type: "string" },
      start: { type: "string" },
      end: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  const parsed = createDealRequest.safeParse({
    deal_type: values.type,
    deal_title: values.title,
    deal_description: values.description,
    deal_price: values.price === undefined ? undefined : number(values.price, "--price"),
    deal_target_gb: values.target === undefined ? undefined : number(values.target, "--target"),
    deal_start_time: values.start ?? new Date().toISOString(),
    deal_end_time: values.end,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${issue?.path.join(".") ?? "deal"}: ${issue?.message ?? "invalid"}`);
  }
  const refusal = dealPriceRefusal(parsed.data.deal_price, listPriceUsd);
  if (refusal) throw new UsageError(`--price: ${refusal}`);
  return parsed.data;
}

function payoutFilter(args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    options: { status: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument: ${positionals[0]}`);
  if (values.status && !(PAYOUT_STATUSES as readonly string[]).includes(values.status)) {
    throw new UsageError(`--status must be one of ${PAYOUT_STATUSES.join(", ")}`);
  }
  return values.status ? { status: values.status } : {};
}

/** Runs one CLI command and returns what to print (JSON: the same shapes as the API). */
export async function runAdminCommand(argv: string[], context: CommandContext): Promise<unknown> {
  const [command, ...args] = argv;
  // Every change made here is in the audit log under the actor "cli", its row written in the
  // change's own transaction as the API does: a change and its row commit together or not at all.
  switch (command) {
    case "credit": {
      const [email, gb, ...note] = args;
      if (!email || gb === undefined) throw new UsageError("credit needs <email> <gb> [note]");
      const amount = number(gb, "gb");
      if (amount === 0 || Math.abs(amount) > 1_000_000)
        throw new UsageError("gb must be non-zero and at most 1000000");
      return context.admin.credit(CLI_ACTOR, {
        email,
        gb: amount,
        note: note.join(" ").trim() || "Operator adjustment (CLI)",
      });
    }
    case "accounts": {
      const { status, ...options } = listOptions(args);
      if (status) throw new UsageError("accounts has no --status");
      return context.admin.accounts(options);
    }
    case "orders":
      return context.admin.orders(listOptions(args));
    case "orders:pay": {
      const [orderId, amount, ...rest] = args;
      if (!orderId || rest.length > 0) throw new UsageError("orders:pay needs <orderId> [amount_usd]");
      if (context.config.isProduction) {
        throw new AppError(400, "orders:pay is a sandbox command and is disabled in production.");
      }
      const amountUsd = amount === undefined ? undefined : number(amount, "amount_usd");
      if (amountUsd !== undefined && amountUsd <= 0)
        throw new UsageError("amount_usd must be greater than 0");
      return context.settlement.paySandbox(orderId, amountUsd, (tx, row) =>
        appendAudit(tx, {
          actor: CLI_ACTOR,
          action: "order.mark_paid",
          subjectType: "order",
          subjectId: orderId,
          after: {
            payment_status: row.paymentStatus,
            ...(amountUsd === undefined ? {} : { amount_usd: amountUsd }),
          },
        }),
      );
    }
    case "deals":
      if (args.length > 0) throw new UsageError("deals takes no arguments");
      return context.deals.listAll();
    case "deals:create": {
      return context.deals.create(
        dealFromArgs(args, context.config.PRICE_PER_GB_USD),
        auditDealChange(CLI_ACTOR, "deal.create"),
      );
    }
    case "deals:cancel": {
      const [dealId, ...rest] = args;
      if (!dealId || rest.length > 0) throw new UsageError("deals:cancel needs <dealId>");
      return context.deals.cancel(dealId, auditDealChange(CLI_ACTOR, "deal.cancel"));
    }
    case "payouts":
      return context.deals.payouts(payoutFilter(args));
    case "payouts:sent": {
      const [payoutId, txHash, ...rest] = args;
      if (!payoutId || !txHash?.trim() || rest.length > 0) {
        throw new UsageError("payouts:sent needs <payoutId> <txHash>");
      }
      return context.deals.payoutSent(payoutId, txHash.trim(), auditPayoutChange(CLI_ACTOR, "payout.sent"));
    }
    case "payouts:failed": {
      const [payoutId, ...rest] = args;
      if (!payoutId || rest.length > 0) throw new UsageError("payouts:failed needs <payoutId>");
      return context.deals.payoutFailed(payoutId, auditPayoutChange(CLI_ACTOR, "payout.failed"));
    }
    case undefined:
    case "help":
    case "--help":
      throw new UsageError("");
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}
