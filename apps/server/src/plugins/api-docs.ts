import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { jsonSchemaTransform } from "fastify-type-provider-zod";

/** OpenAPI generated from the routes' zod schemas; the API reference page is /docs. */
async function apiDocsPlugin(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      info: {
        title: "ByteToll API",
        description:
          "Prepaid proxy data: sign-in, account, orders, usage. Errors are {success:false, message}.",
        version: "1.0.0",
      },
      servers: [{ url: app.config.APP_URL }],
      components: {
        securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "App JWT or API token" } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: "/docs" });
}

export default fp(apiDocsPlugin, { name: "api-docs" });
