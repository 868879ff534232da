import {
  allowlistProofParams,
  allowlistProofResponse,
  allowlistRequestSchema,
  allowlistResponse,
  errorResponse,
} from "@bytetoll/contracts";
import { AppError } from "../../errors.ts";
import { type App, requireUser } from "../../types.ts";
import { createAllowlistService } from "./service.ts";

const errors = { 400: errorResponse, 401: errorResponse, 429: errorResponse };

/** A browser says where a request comes from: a proof link opened by another site (an image, a
 * form, a link a stranger planted) would prove an address for whoever made that link. Typed or
 * pasted ("none"), the dashboard's own page, and clients that send no such header (curl) may prove. */
const PROOF_SITES = new Set([undefined, "none", "same-origin"]);

/** GET and POST /settings/allowlist: addresses admitted to the proxy without credentials;
 * GET /allowlist/proof/{token}: the link that proves an entry from its address. */
export async function allowlistRoutes(app: App) {
  const service = createAllowlistService(app.database, app.config.APP_URL);

  app.get(
    "/settings/allowlist",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["settings"],
        summary: "The caller's IP allowlist, the entries waiting for a proof, and the caller's address",
        security: [{ bearer: [] }],
        response: { 200: allowlistResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.list(requireUser(request).id, request.ip),
    }),
  );

  app.post(
    "/settings/allowlist",
    {
      preHandler: app.authenticate,
      schema: {
        tags: ["settings"],
        summary: "Replace the IP allowlist (at most 20 addresses or ranges up to /24 and /48)",
        description:
          "Entries holding the caller's address take effect at once; the others wait until their proof_url is fetched from an address they hold.",
        security: [{ bearer: [] }],
        body: allowlistRequestSchema,
        response: { 200: allowlistResponse, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.replace(requireUser(request).id, request.body.ips, request.ip),
    }),
  );

  app.get(
    "/allowlist/proof/:token",
    {
      schema: {
        tags: ["settings"],
        summary: "Prove an IP allowlist entry: fetch this link from an address the entry holds",
        params: allowlistProofParams,
        response: { 200: allowlistProofResponse, 400: errorResponse, 403: errorResponse, 429: errorResponse },
      },
    },
    async (request, reply) => {
      reply.header("cache-control", "no-store");
      if (!PROOF_SITES.has(request.headers["sec-fetch-site"] as string | undefined)) {
        throw new AppError(
          403,
          "Open this link by pasting it into the address bar, or fetch it with curl from the address: a link followed from another site proves nothing.",
          "allowlist_proof_cross_site",
        );
      }
      return { success: true as const, data: await service.prove(request.params.token, request.ip) };
    },
  );
}
