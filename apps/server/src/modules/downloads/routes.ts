import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { notFound } from "../../errors.ts";
import type { App } from "../../types.ts";

/** Where `npm run build` (scripts/build-integrations.mjs) puts the packages. */
export const DOWNLOADS_DIR = fileURLToPath(new URL("../../../dist/downloads/", import.meta.url));

/** The packages this install offers, since they are on no public registry. */
export const DOWNLOADS = {
  "bytetoll-sdk.tgz": { type: "application/gzip", what: "Node.js SDK (npm install <this URL>)" },
  "bytetoll-mcp.tgz": { type: "application/gzip", what: "MCP server (npx <this URL>)" },
  "bytetoll-php.zip": { type: "application/zip", what: "PHP SDK" },
} as const;
export type DownloadName = keyof typeof DOWNLOADS;

const isDownload = (name: string): name is DownloadName => Object.hasOwn(DOWNLOADS, name);

/** GET /downloads/{file}: the packed Node.js SDK, MCP server and PHP SDK. */
export async function downloadsRoutes(app: App) {
  app.get(
    "/downloads/:file",
    {
      schema: {
        tags: ["downloads"],
        summary: "The Node.js SDK, the MCP server and the PHP SDK of this install",
        description: Object.entries(DOWNLOADS)
          .map(([name, file]) => `${name}: ${file.what}`)
          .join("; "),
        params: z.object({ file: z.string() }),
        // No response schema: the body is a file stream; a missing file is a 404 in the usual
        // {success:false, message} shape.
      },
    },
    async (request, reply) => {
      const { file } = request.params;
      if (!isDownload(file)) throw notFound("No such download");
      const location = path.join(DOWNLOADS_DIR, file);
      const size = await stat(location).then(
        (info) => info.size,
        () => null,
      );
      if (size === null) throw notFound(`${file} is not built on this server: run npm run build`);
      return reply
        .type(DOWNLOADS[file].type)
        .header("content-length", size)
        .header("content-disposition", `attachment; filename="${file}"`)
        .header("cache-control", "no-cache")
        .send(createReadStream(location));
    },
  );
}
