import { closeSync, createReadStream, mkdirSync, openSync, utimesSync, writeSync } from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";

const BLOCK = 512;

interface OpenFile {
  fd: number;
  path: string;
  left: number;
  padding: number;
  modified: number;
}

/**
 * Writes the files of a PGlite dump (`dumpDataDir("gzip")`: a gzipped ustar archive of regular
 * files and directories named from the data directory's root) into `target`, keeping their
 * modification times — what PGlite's own `loadDataDir` writes, without starting PostgreSQL.
 * Streamed: the 40 MB the archive unpacks to never sit in memory at once.
 */
export async function unpackClusterTemplate(template: string, target: string): Promise<void> {
  mkdirSync(target, { mode: 0o700 });
  let open: OpenFile | null = null;
  let skip = 0;
  let carried = Buffer.alloc(0);
  let ended = false;

  const close = (file: OpenFile) => {
    closeSync(file.fd);
    if (file.modified > 0) utimesSync(file.path, file.modified, file.modified);
    skip = file.padding;
    open = null;
  };

  /** Starts the entry a header describes; false at the end-of-archive block. */
  const begin = (header: Buffer): boolean => {
    if (header.every((byte) => byte === 0)) return false;
    const text = (start: number, length: number) =>
      header.toString("latin1", start, start + length).split("\0")[0] ?? "";
    const number = (start: number, length: number) => Number.parseInt(text(start, length).trim() || "0", 8);
    const name = [text(345, 155), text(0, 100)].filter(Boolean).join("/");
    const size = number(124, 12);
    const type = text(156, 1) || "0";
    // Normalised from the root, so no name reaches outside the target.
    const file = path.join(target, path.normalize(`/${name}`));
    if (type === "5") {
      mkdirSync(file, { recursive: true, mode: 0o700 });
      return true;
    }
    if (type !== "0")
      throw new Error(`${template}: ${name} is neither a file nor a directory (tar type ${type})`);
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const entry: OpenFile = {
      fd: openSync(file, "w", 0o600),
      path: file,
      left: size,
      padding: (BLOCK - (size % BLOCK)) % BLOCK,
      modified: number(136, 12),
    };
    if (size === 0) close(entry);
    else open = entry;
    return true;
  };

  try {
    await pipeline(createReadStream(template), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) {
        let data = carried.length > 0 ? Buffer.concat([carried, chunk]) : chunk;
        carried = Buffer.alloc(0);
        while (data.length > 0 && !ended) {
          const file: OpenFile | null = open;
          if (file) {
            const written = writeSync(file.fd, data, 0, Math.min(file.left, data.length));
            file.left -= written;
            data = data.subarray(written);
            if (file.left === 0) close(file);
          } else if (skip > 0) {
            const skipped = Math.min(skip, data.length);
            skip -= skipped;
            data = data.subarray(skipped);
          } else if (data.length < BLOCK) {
            carried = Buffer.from(data);
            data = data.subarray(data.length);
          } else {
            ended = !begin(data.subarray(0, BLOCK));
            data = data.subarray(BLOCK);
          }
        }
      }
    });
  } finally {
    // Assigned in the callbacks above, which TypeScript's narrowing does not follow.
    const file = open as OpenFile | null;
    if (file) closeSync(file.fd);
  }
  if (!ended) throw new Error(`${template} ends before its end-of-archive block`);
}
