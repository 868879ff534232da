import { randomInt } from "node:crypto";
import { decryptSecret, deriveKey, encryptSecret, hashSecret, randomSecret } from "@bytetoll/db";

const USERNAME_PREFIX = "bt";
const USERNAME_RANDOM_LENGTH = 10;
const USERNAME_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
/** 24 random bytes → 32 URL-safe characters (docs/product.md#credentials). */
const PASSWORD_BYTES = 24;

/** `bt` + 10 lowercase alphanumerics: no `-`, so the gateway's option suffixes stay unambiguous. */
export function generateUsername(): string {
  let name = USERNAME_PREFIX;
  for (let i = 0; i < USERNAME_RANDOM_LENGTH; i++)
    name += USERNAME_ALPHABET[randomInt(USERNAME_ALPHABET.length)];
  return name;
}

export function generatePassword(): string {
  return randomSecret(PASSWORD_BYTES);
}

/** The password as stored: hashed for the gateway's check, sealed so /connect can show it again. */
export function createPasswordSealer(appSecret: string) {
  const key = deriveKey(appSecret, "proxy-password");
  return {
    seal(password: string) {
      return { passwordHash: hashSecret(password), passwordEnc: encryptSecret(key, password) };
    },
    open(passwordEnc: string): string {
      return decryptSecret(key, passwordEnc);
    },
  };
}

export type PasswordSealer = ReturnType<typeof createPasswordSealer>;
