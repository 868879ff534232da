import { isIP } from "node:net";
import { z } from "zod";
import type { App } from "../../types.ts";

const PRIVATE_V4 =
  /^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/;

/** Addresses ipinfo.io calls "bogons": no geography or network owner to report. */
function isBogon(ip: string): boolean {
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip;
  if (isIP(v4) === 4) return PRIVATE_V4.test(v4);
  const lower = ip.toLowerCase();
  return lower === "::1" || lower.startsWith("fc") || lower.startsWith("fd") || lower.startsWith("fe80:");
}

const ipInfoReply = z.object({
  ip: z.string(),
  bogon: z.boolean(),
  org: z.string(),
  country: z.string(),
  region: z.string(),
  city: z.string(),
});

/**
 * GET /ipinfo: the caller's address in ipinfo.io's shape (a browser or script asking where it
 * comes from). Not Test Connection's target: the gateway never dials the API (decision 023) and
 * answers the default IPINFO_URL itself. This server has no geo database, so only the address is
 * real.
 */
export async function ipInfoRoutes(app: App) {
  app.get(
    "/ipinfo",
    {
      schema: {
        tags: ["credentials"],
        summary: "The caller's IP address (ipinfo.io shape)",
        response: { 200: ipInfoReply },
      },
    },
    async (request) => {
      const ip = request.ip ?? "";
      const bogon = isBogon(ip);
      return {
        ip,
        bogon,
        org: bogon ? "Private network" : "Unknown network",
        country: "",
        region: "",
        city: "",
      };
    },
  );
}
