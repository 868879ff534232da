import {
  type MintedProxyListLink,
  type ProxyListLink,
  type ProxyListOptions,
  proxyListSettingsSchema,
} from "@bytetoll/contracts";
import { type Database, hashSecret, randomSecret } from "@bytetoll/db";
import { AppError, notFound } from "../../errors.ts";
import { createPasswordSealer } from "./credential-secrets.ts";
import { type ProxyListGateway, proxyListEntries } from "./proxy-list.ts";
import type { CredentialsService } from "./service.ts";

/** 24 random bytes: 32 URL-safe characters, as a proxy password. */
const LINK_SECRET_BYTES = 24;
/** A list user sees at most this many download URLs; revoking one makes room. */
export const MAX_PROXY_LIST_LINKS = 20;

interface LinkRow {
  id: string;
  label: string | null;
  options: unknown;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const toLink = (row: LinkRow): ProxyListLink => ({
  id: row.id,
  label: row.label,
  options: proxyListSettingsSchema.parse(row.options),
  created_at: iso(row.created_at),
  last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
});

interface Deps {
  database: Database;
  appSecret: string;
  appUrl: string;
  credentials: CredentialsService;
  gateway: () => ProxyListGateway;
}

/** docs/product.md#proxy-list: the lines of the account's (or one of its sub-users') credentials. */
export function createProxyListService({ database, appSecret, appUrl, credentials, gateway }: Deps) {
  const sealer = createPasswordSealer(appSecret);

  /** The credentials a list is made of: the account's, or its own sub-user's (404 for another's). */
  async function baseCredentials(userId: string, subuserId: string | undefined) {
    if (!subuserId) return credentials.latest(userId);
    const [row] = await database.query<{ username: string; password_enc: string }>(
      "SELECT username, password_enc FROM subusers WHERE user_id = $1 AND id = $2",
      [userId, subuserId],
    );
    if (!row) throw notFound("subuser_id names no sub-user of this account");
    return { username: row.username, password: sealer.open(row.password_enc) };
  }

  async function entries(userId: string, options: ProxyListOptions) {
    const target = gateway();
    if (options.protocol === "socks5" && target.socksPort === null)
      throw new AppError(400, "protocol socks5 is not offered by this network: use http");
    return proxyListEntries(await baseCredentials(userId, options.subuser_id), options, target);
  }

  return {
    entries,

    async listLinks(userId: string): Promise<ProxyListLink[]> {
      const rows = await database.query<LinkRow>(
        `SELECT id, label, options, created_at, last_used_at FROM proxy_list_links
          WHERE user_id = $1 ORDER BY created_at DESC, id`,
        [userId],
      );
      return rows.map(toLink);
    },

    /** A new download URL; its secret is in the answer only, the database keeps its hash. */
    async mintLink(userId: string, options: ProxyListOptions, label?: string): Promise<MintedProxyListLink> {
      await entries(userId, { ...options, count: 1 });
      const secret = randomSecret(LINK_SECRET_BYTES);
      const [row] = await database.query<LinkRow>(
        `INSERT INTO proxy_list_links (user_id, subuser_id, secret_hash, label, options)
         SELECT $1, $2, $3, $4, $5::jsonb
          WHERE (SELECT count(*) FROM proxy_list_links WHERE user_id = $1) < $6
         RETURNING id, label, options, created_at, last_used_at`,
        [
          userId,
          options.subuser_id ?? null,
          hashSecret(secret),
          label ?? null,
          JSON.stringify(options),
          MAX_PROXY_LIST_LINKS,
        ],
      );
      if (!row)
        throw new AppError(
          409,
          `At most ${MAX_PROXY_LIST_LINKS} download URLs: revoke one you no longer use`,
        );
      return { ...toLink(row), url: `${appUrl}/credentials/proxy-list/shared/${secret}` };
    },

    async revokeLink(userId: string, id: string): Promise<void> {
      const rows = await database.query(
        "DELETE FROM proxy_list_links WHERE user_id = $1 AND id = $2 RETURNING id",
        [userId, id],
      );
      if (rows.length === 0) throw notFound("No such download URL");
    },

    /** The list behind a download URL, or a 404 that says nothing about why (unknown or revoked). */
    async shared(secret: string) {
      const [row] = await database.query<{ user_id: string; options: unknown }>(
        `UPDATE proxy_list_links SET last_used_at = now() WHERE secret_hash = $1
         RETURNING user_id, options`,
        [hashSecret(secret)],
      );
      if (!row) throw notFound("This proxy list URL does not exist or was revoked");
      const options = proxyListSettingsSchema.parse(row.options) as ProxyListOptions;
      return { options, entries: await entries(row.user_id, options) };
    },
  };
}

export type ProxyListService = ReturnType<typeof createProxyListService>;
