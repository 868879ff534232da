import {
  adminDomainResponse,
  adminDomainsPage,
  adminDomainsQuery,
  adminNetworkResponse,
  domainOverrideBody,
  domainOverrideParams,
} from "@bytetoll/contracts";
import type { App } from "../../types.ts";
import { appendAudit } from "./audit.ts";
import { networkFigures } from "./network.ts";
import { adminErrors } from "./schemas.ts";

/** The operator's network view and Intelligence's domains; registered inside adminRoutes, behind
 * its operator check. */
export async function adminNetworkRoutes(app: App) {
  app.get(
    "/admin/network",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Live gateway instances, and each upstream exit's last hour: success rate, median connect time, bytes, up or down",
        security: [{ bearer: [] }],
        response: { 200: adminNetworkResponse, ...adminErrors },
      },
    },
    async () => ({ success: true as const, data: await networkFigures(app.database) }),
  );

  app.get(
    "/admin/intelligence/domains",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Every domain the learner knows: verdict, evidence, override; overridden first, then by name",
        security: [{ bearer: [] }],
        querystring: adminDomainsQuery,
        response: { 200: adminDomainsPage, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await app.intelligence.domains.list(request.query)),
      page: request.query.page,
      per_page: request.query.per_page,
    }),
  );

  app.put(
    "/admin/intelligence/domains/:domain/override",
    {
      schema: {
        tags: ["admin"],
        summary:
          "Force a domain over datacenter or premium for every customer under -routing-smart (null: no override)",
        description: "Reaches every gateway at once through the change feed; recorded in the audit log.",
        security: [{ bearer: [] }],
        params: domainOverrideParams,
        body: domainOverrideBody,
        response: { 200: adminDomainResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await app.intelligence.domains.setOverride(
        request.params.domain,
        request.body.override,
        (tx, change) =>
          appendAudit(tx, {
            actor: request.adminActor,
            action: "intelligence.override",
            subjectType: "domain",
            subjectId: change.domain,
            before: { override: change.before },
            after: { override: change.after },
          }),
      ),
    }),
  );
}
