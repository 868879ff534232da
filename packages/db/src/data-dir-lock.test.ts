import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { DataDirInUseError, openDatabase } from "./client.ts";

const parent = mkdtempSync(path.join(tmpdir(), "bytetoll-data-dir-lock-"));
afterAll(() => rmSync(parent, { recursive: true, force: true }));
const client = fileURLToPath(new URL("./client.ts", import.meta.url));

interface Holder {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Another process that opens `dataDir`, inserts `email`, says "ready" and keeps the database
 * open until SIGTERM (then closes it and exits 0). */
function holder(dataDir: string, email: string): Holder {
  const script = `
    const { openDatabase } = await import(${JSON.stringify(client)});
    const database = await openDatabase({ dataDir: ${JSON.stringify(dataDir)} });
    await database.query("INSERT INTO users (email) VALUES ($1)", [${JSON.stringify(email)}]);
    console.log("ready");
    process.on("SIGTERM", () => database.close().then(() => process.exit(0)));
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function ready(process: Holder): Promise<void> {
  let exitCode: number | null | undefined;
  void process.exited.then((code) => {
    exitCode = code;
  });
  await vi.waitUntil(
    () => {
      if (exitCode !== undefined) throw new Error(`exited (${exitCode}) before ready:\n${process.output()}`);
      return process.output().includes("ready");
    },
    { timeout: 30_000, interval: 50 },
  );
}

async function emails(dataDir: string): Promise<string[]> {
  const database = await openDatabase({ dataDir });
  try {
    const rows = await database.query<{ email: string }>("SELECT email FROM users ORDER BY email");
    return rows.map((row) => row.email);
  } finally {
    await database.close();
  }
}

// The processes below get only the variables written here, so they always run on the embedded
// database: the PostgreSQL + Redis run of the suite would repeat this file to the letter.
const samePerDatabase = process.env.DATABASE_URL !== undefined;

describe.skipIf(samePerDatabase)("one process per embedded data directory", () => {
  it("refuses a second process, naming the directory and the holder's pid, while the first keeps its data", async () => {
    const dataDir = path.join(parent, "two-processes", "pglite");
    const first = holder(dataDir, "first@example.com");
    await ready(first);
    const second = holder(dataDir, "second@example.com");
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(`${dataDir} is in use by process ${first.child.pid}`);

    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);
    expect(existsSync(`${dataDir}.lock`)).toBe(false);
    expect(await emails(dataDir)).toEqual(["first@example.com"]);
  }, 120_000);

  it("takes over the lock of a process killed with SIGKILL", async () => {
    const dataDir = path.join(parent, "killed", "pglite");
    const killed = holder(dataDir, "killed@example.com");
    await ready(killed);
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(existsSync(`${dataDir}.lock`)).toBe(true);

    expect(await emails(dataDir)).toEqual(["killed@example.com"]);
    expect(readdirSync(path.dirname(dataDir))).toEqual(["pglite"]);
  }, 120_000);

  it("refuses a second open in the same process until the first is closed", async () => {
    const dataDir = path.join(parent, "same-process", "pglite");
    const first = await openDatabase({ dataDir });
    const second = openDatabase({ dataDir });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`in use by process ${process.pid}`);
    await first.close();
    const again = await openDatabase({ dataDir });
    await again.close();
  }, 120_000);

  it.skipIf(!existsSync("/proc/self/stat"))(
    "takes over a lock whose pid now belongs to another process, or to this one in an earlier life",
    async () => {
      const dataDir = path.join(parent, "reused-pid", "pglite");
      mkdirSync(path.dirname(dataDir));
      // A restarted container numbers its processes alike: the lock names this very pid.
      writeFileSync(`${dataDir}.lock`, `${process.pid}\n1\n`);
      const mine = await openDatabase({ dataDir });
      await mine.close();
      // A live process, but not the one that wrote the lock: its start time differs.
      writeFileSync(`${dataDir}.lock`, `${process.ppid}\n1\n`);
      const reused = await openDatabase({ dataDir });
      await reused.close();
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
    },
    120_000,
  );
});
