import { DEALS_CHANNEL, ORDERS_CHANNEL_PREFIX, ordersChannel } from "@bytetoll/contracts";
import type { AuthUser } from "../types.ts";

/** Which room a `subscribe`/`unsubscribe` names, and whether this socket may join it: `deals` is
 * public, `topup-transactions.{userId}` only for the signed-in owner. */
export function parseChannel(
  payload: unknown,
  user: AuthUser | null,
): { ok: true; room: string } | { ok: false; message: string } {
  const channel =
    payload && typeof payload === "object" ? (payload as { channel?: unknown }).channel : undefined;
  if (typeof channel !== "string") return { ok: false, message: "channel is required" };
  if (channel === DEALS_CHANNEL) return { ok: true, room: channel };
  if (channel.startsWith(ORDERS_CHANNEL_PREFIX)) {
    if (!user) return { ok: false, message: "Unauthorized" };
    if (channel !== ordersChannel(user.id)) return { ok: false, message: "Forbidden" };
    return { ok: true, room: channel };
  }
  return { ok: false, message: "Unknown channel" };
}
