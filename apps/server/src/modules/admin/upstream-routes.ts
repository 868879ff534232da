import {
  createUpstreamBody,
  marginsQuery,
  marginsResponse,
  okResponse,
  updateUpstreamBody,
  upstreamParams,
  upstreamResponse,
  upstreamsResponse,
  upstreamTestBody,
  upstreamTestResponse,
} from "@bytetoll/contracts";
import { upstreamsKey } from "@bytetoll/db";
import { AppError, notFound } from "../../errors.ts";
import type { App } from "../../types.ts";
import { watchExitBudgets } from "./exit-budgets.ts";
import { consoleExitSpecOf } from "./exit-spec.ts";
import { DEFAULT_EXIT_TEST_URL, testExit } from "./exit-test.ts";
import { createExitsStore } from "./exits-store.ts";
import { consoleExit, listExits } from "./exits-view.ts";
import { margins } from "./margins.ts";
import { networkFigures } from "./network.ts";
import { adminErrors } from "./schemas.ts";

const readOnly = () =>
  new AppError(
    409,
    "id: exits from MOBILE_UPSTREAMS / DATACENTER_UPSTREAMS are read-only; add the exit in the console instead",
    "conflict",
  );

/** Exits as data and the margin report; registered inside adminRoutes, behind its operator check. */
export async function adminUpstreamRoutes(app: App) {
  const key = upstreamsKey(app.config.gateway.upstreamsKey?.secret, app.config.DATA_DIR);
  const store = createExitsStore(app.database, key);
  const consoleId = (id: string) => {
    if (id.startsWith("env:")) throw readOnly();
    return id;
  };
  const health = () => networkFigures(app.database);
  const shown = async (row: Awaited<ReturnType<typeof store.one>>) => {
    if (!row) throw notFound("No such exit");
    return consoleExit(row, (await health()).upstreams);
  };
  const common = { tags: ["admin"], security: [{ bearer: [] }] };
  watchExitBudgets(app);

  app.get(
    "/admin/upstreams",
    {
      schema: {
        ...common,
        summary:
          "Every exit: the console's and, read-only, the environment's, with state, last hour and cost",
        response: { 200: upstreamsResponse, ...adminErrors },
      },
    },
    async () => ({
      success: true as const,
      data: await listExits(app.database, app.config.gateway, await store.list()),
    }),
  );

  app.post(
    "/admin/upstreams",
    {
      schema: {
        ...common,
        summary: "Add an exit; every gateway takes traffic through it within seconds",
        description:
          "The password is sealed (UPSTREAMS_KEY or DATA_DIR/upstreams-key) and never returned. Audited.",
        body: createUpstreamBody,
        response: { 201: upstreamResponse, ...adminErrors },
      },
    },
    async (request, reply) => {
      const row = await store.create(request.adminActor, request.body);
      return reply.code(201).send({ success: true as const, data: await shown(row) });
    },
  );

  app.patch(
    "/admin/upstreams/:id",
    {
      schema: {
        ...common,
        summary: "Change any field of a console exit (audited)",
        params: upstreamParams,
        body: updateUpstreamBody,
        response: { 200: upstreamResponse, ...adminErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await shown(await store.update(request.adminActor, consoleId(request.params.id), request.body)),
    }),
  );

  app.delete(
    "/admin/upstreams/:id",
    {
      schema: {
        ...common,
        summary: "Delete a console exit: no new connection through it; open tunnels go on (audited)",
        params: upstreamParams,
        response: { 200: okResponse, ...adminErrors },
      },
    },
    async (request) => {
      await store.remove(request.adminActor, consoleId(request.params.id));
      return { success: true as const };
    },
  );

  app.post(
    "/admin/upstreams/:id/test",
    {
      schema: {
        ...common,
        summary:
          "GET an echo service through the exit: its address, country and time to answer, or what failed",
        params: upstreamParams,
        body: upstreamTestBody,
        response: { 200: upstreamTestResponse, ...adminErrors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const host = app.gatewayHost;
      if (!host)
        return reply.code(409).send({
          success: false as const,
          message: "This server was started without the gateway, so it cannot test an exit",
        });
      const spec = id.startsWith("env:")
        ? environmentSpec(app, id)
        : consoleExitSpecOf(await store.one(id), key, app.config.gateway.upstreamCa);
      const url = request.body?.url ?? DEFAULT_EXIT_TEST_URL;
      return { success: true as const, data: await testExit(host, app.config.gateway, spec, url) };
    },
  );

  app.get(
    "/admin/margins",
    {
      schema: {
        ...common,
        summary: "Billed against the exits' cost per day, exit, pool or customer, in exact micro-dollar sums",
        querystring: marginsQuery,
        response: { 200: marginsResponse, ...adminErrors },
      },
    },
    async (request) => {
      const { from, to, group_by } = request.query;
      return { success: true as const, data: await margins(app.database, from, to, group_by) };
    },
  );
}

function environmentSpec(app: App, id: string) {
  const [, pool, index] = id.split(":");
  const specs =
    pool === "mobile" ? app.config.gateway.mobileUpstreams : app.config.gateway.datacenterUpstreams;
  const spec = specs[Number(index)];
  if (!spec) throw notFound("No such exit");
  return spec;
}
