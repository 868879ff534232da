import { createCipheriv, createDecipheriv, hash, hkdfSync, randomBytes } from "node:crypto";

/** SHA-256 hex of a high-entropy secret (link tokens, proxy passwords, API tokens). These are
 * random, never chosen by a person, so a fast hash is enough; lookups go by this hash. */
export function hashSecret(secret: string): string {
  // The one-shot hash: no Hash object per call (the gateway hashes a password per connection).
  return hash("sha256", secret, "hex");
}

/** Whether two hashSecret outputs are equal, in time that does not depend on where they differ.
 * Compared as the strings they are (lowercase hex of one length): decoding both into buffers
 * first cost two allocations, on every proxy connection the gateway admits, and took any two
 * strings that are not hex as equal (both decode to nothing). */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/** URL-safe random secret with the given number of random bytes (≥ 16 = 128 bits). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** Derives the at-rest encryption key from the application secret. */
export function deriveKey(appSecret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", appSecret, "bytetoll", purpose, 32));
}

/** AES-256-GCM; output is base64url(iv | tag | ciphertext). */
export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
