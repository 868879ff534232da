import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhook } from "../src/index.ts";

const secret = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef";
const body = '{"id":"evt_1","type":"ping","created":1795400000,"data":{}}';
const sign = (t: number, text = body, key = secret) =>
  `t=${t},v1=${createHmac("sha256", key).update(`${t}.${text}`).digest("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

describe("verifyWebhook", () => {
  it("accepts a fresh signature over the raw body, as a string or as bytes", () => {
    expect(verifyWebhook(body, sign(now()), secret)).toBe(true);
    expect(verifyWebhook(Buffer.from(body), sign(now()), secret)).toBe(true);
    expect(verifyWebhook(body, sign(now() - 299), secret)).toBe(true);
  });

  it("refuses a changed body, another secret, an old or future time, and malformed headers", () => {
    expect(verifyWebhook(body.replace("ping", "pong"), sign(now()), secret)).toBe(false);
    expect(verifyWebhook(body, sign(now(), body, "whsec_other"), secret)).toBe(false);
    expect(verifyWebhook(body, sign(now() - 301), secret)).toBe(false);
    expect(verifyWebhook(body, sign(now() + 301), secret)).toBe(false);
    for (const header of [
      "",
      "t=,v1=",
      `v1=${"a".repeat(64)}`,
      `t=${now()}`,
      `t=${now()},v1=zz`,
      "garbage",
      undefined,
      null,
    ])
      expect(verifyWebhook(body, header, secret), String(header)).toBe(false);
    // The time is signed too: moving it forward breaks the signature.
    const t = now() - 10;
    const moved = sign(t).replace(`t=${t}`, `t=${t + 5}`);
    expect(verifyWebhook(body, moved, secret)).toBe(false);
  });
});
