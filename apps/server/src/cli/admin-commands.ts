import { parseArgs } from "node:util";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import type { AdminService } from "../modules/admin/service.ts";
import { PAYMENT_STATUSES } from "../modules/orders/schemas.ts";
import type { OrdersService } from "../modules/orders/service.ts";

export const USAGE = `Usage: npm run admin -- <command>

  credit <email> <gb> [note…]        add (or with a negative gb, remove) data, with a note
  accounts [--email <text>]          list accounts (newest first)
  orders [--email <text>] [--status <status>]
                                     list orders (newest first)
  orders:pay <orderId> [amount_usd]  sandbox: mark an order paid (or partly paid)

Reads the same environment as the server (DATABASE_URL, DATA_DIR, …).`;

export class UsageError extends Error {}

export interface CommandContext {
  config: Config;
  admin: AdminService;
  orders: OrdersService;
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

/** Runs one CLI command and returns what to print (JSON: the same shapes as the API). */
export async function runAdminCommand(argv: string[], context: CommandContext): Promise<unknown> {
  const [command, ...args] = argv;
  switch (command) {
    case "credit": {
      const [email, gb, ...note] = args;
      if (!email || gb === undefined) throw new UsageError("credit needs <email> <gb> [note]");
      const amount = number(gb, "gb");
      if (amount === 0 || Math.abs(amount) > 1_000_000)
        throw new UsageError("gb must be non-zero and at most 1000000");
      return context.admin.credit({
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
      return context.orders.paySandbox(orderId, amountUsd);
    }
    case undefined:
    case "help":
    case "--help":
      throw new UsageError("");
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}
