import { createHmac } from "node:crypto";

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" under the secret>`: the time is signed with
 * the body, so a receiver that checks it (5 minutes' tolerance in our SDKs) refuses old replays. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex");
  return `t=${unixSeconds},v1=${digest}`;
}
