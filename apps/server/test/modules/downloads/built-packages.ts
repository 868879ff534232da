import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildIntegrations,
  DOWNLOAD_NAMES,
  downloadsDir,
  integrationSourceDirs,
} from "../../../../../scripts/build-integrations.mjs";

const repoRoot = fileURLToPath(new URL("../../../../..", import.meta.url));

function newestIn(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce(
      (newest, entry) => Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs),
      0,
    );
}

function oldestDownload(): number {
  return Math.min(
    ...DOWNLOAD_NAMES.map((name) => {
      try {
        return statSync(path.join(downloadsDir, name)).mtimeMs;
      } catch {
        return 0;
      }
    }),
  );
}

/** The packages as `npm run build` makes them, rebuilt first when a source is newer (a dev run). */
export async function ensureIntegrationsBuilt(): Promise<void> {
  const newestSource = Math.max(...integrationSourceDirs.map((dir) => newestIn(path.join(repoRoot, dir))));
  if (oldestDownload() < newestSource) await buildIntegrations();
}
