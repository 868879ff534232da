import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** RFC 6238 with the parameters every authenticator app assumes: SHA-1, 30 s, 6 digits. */
export const TOTP_STEP_SECONDS = 30;
const DIGITS = 6;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text.toUpperCase()) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new shared secret: 160 bits, as RFC 4226 recommends, in base32 as apps take it. */
export const newTotpSecret = () => base32Encode(randomBytes(20));

/** The 30-second step a moment falls in. */
export const totpStep = (nowMs = Date.now()) => Math.floor(nowMs / 1000 / TOTP_STEP_SECONDS);

/** HOTP (RFC 4226) of one step: the code an app shows during it. */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 15;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** DIGITS).padStart(DIGITS, "0");
}

/**
 * The step `code` belongs to: this one, or one either side (a phone's clock drifts, a person
 * types slowly), but never one at or before `lastStep` — a code counts once. Null when none.
 */
export function matchingStep(secret: string, code: string, lastStep: number | null, nowMs = Date.now()) {
  const now = totpStep(nowMs);
  for (const step of [now - 1, now, now + 1]) {
    if (lastStep !== null && step <= lastStep) continue;
    if (
      timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(code.padEnd(DIGITS).slice(0, DIGITS)))
    )
      return step;
  }
  return null;
}

/** The otpauth:// link an app reads from the QR code. */
export function otpauthUrl(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: String(DIGITS),
    period: "30",
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}

/** A recovery code: 10 base32 characters (50 bits), shown as xxxxx-xxxxx. */
export function newRecoveryCode(): string {
  const code = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** What is hashed and compared: without the dash, lower case. */
export const normalizeRecoveryCode = (code: string) => code.replace(/[\s-]+/g, "").toLowerCase();
