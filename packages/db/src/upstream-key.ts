import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { decryptSecret, deriveKey, encryptSecret, randomSecret } from "./secrets.ts";

/**
 * A secret kept in a file of DATA_DIR (JWT_SECRET's jwt-secret, the exits' upstreams-key):
 * created with a random value (mode 0600) on first use, read afterwards. Exclusive create, so two
 * processes starting together end up with the same secret. Answers the file's path and content.
 */
export function secretFile(dataDir: string, name: string): { file: string; secret: string } {
  const file = path.join(path.resolve(dataDir), name);
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    const fd = openSync(file, "wx", 0o600);
    try {
      writeSync(fd, randomSecret(48));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  return { file, secret: readFileSync(file, "utf8").trim() };
}

/** What the console exits' passwords are sealed with (decision 042): UPSTREAMS_KEY when it is
 * set (the same on every instance), else DATA_DIR/upstreams-key (secretFile). */
export function upstreamsKey(secret: string | undefined, dataDir: string | undefined): Buffer | null {
  if (secret !== undefined && secret !== "") return deriveKey(secret, "upstreams");
  if (dataDir === undefined) return null;
  return deriveKey(secretFile(dataDir, "upstreams-key").secret, "upstreams");
}

export const sealUpstreamPassword = (key: Buffer, password: string): string => encryptSecret(key, password);
export const openUpstreamPassword = (key: Buffer, sealed: string): string => decryptSecret(key, sealed);

/** An exit URL split for storage: the URL with its password left out, and the password. */
export function splitExitUrl(url: string): { publicUrl: string; password: string | null } {
  const match = /^([a-z0-9]+:\/\/)([^@/]*)@(.*)$/i.exec(url);
  if (!match) return { publicUrl: url, password: null };
  const [, scheme, userinfo, rest] = match as unknown as [string, string, string, string];
  const colon = userinfo.indexOf(":");
  if (colon === -1) return { publicUrl: url, password: null };
  return { publicUrl: `${scheme}${userinfo.slice(0, colon)}@${rest}`, password: userinfo.slice(colon + 1) };
}

/** The stored URL with its password put back (`password` as it was in the URL, still escaped). */
export function joinExitUrl(publicUrl: string, password: string | null): string {
  if (password === null) return publicUrl;
  return publicUrl.replace(
    /^([a-z0-9]+:\/\/)([^@/:]*)@/i,
    (_, scheme: string, user: string) => `${scheme}${user}:${password}@`,
  );
}

/** What the API and the console show: `scheme://user:****@host:port` when there is a password. */
export function maskedExitUrl(publicUrl: string, hasPassword: boolean): string {
  return hasPassword ? joinExitUrl(publicUrl, "****") : publicUrl;
}
