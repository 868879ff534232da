import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * An embedded (PGlite) data directory is opened by one process at a time: two PGlite instances
 * on the same files each keep their own buffers and write-ahead log, and split or corrupt the
 * data. The holder is written in `<dataDir>.lock` (its pid, and on Linux its start time, so a
 * pid the system has since given to another process is not mistaken for the holder).
 */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `${dataDir} is in use by process ${pid}: the embedded database allows one process per data directory`,
    );
    this.name = "DataDirInUseError";
  }
}

export interface DataDirLock {
  /** Removes the lock file if it is still this process's. Idempotent. */
  release(): void;
}

interface Holder {
  pid: number;
  /** Start time of the process (clock ticks after boot, /proc/<pid>/stat), where known. */
  started: string;
}

/** Lock files this process holds now: a second open of one of them in this process is refused too. */
const heldHere = new Set<string>();

function processStartTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses; starttime is field 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? "";
  } catch {
    return ""; // not Linux, or the process is gone
  }
}

function readHolder(file: string): { text: string; holder: Holder | null } | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const [pidLine, started = ""] = text.split("\n");
  const pid = Number(pidLine);
  return { text, holder: Number.isInteger(pid) && pid > 0 ? { pid, started } : null };
}

/** Whether the process that wrote the lock still runs (the same process, not a reused pid). */
function holderIsAlive(file: string, holder: Holder): boolean {
  // Our own pid in a lock we do not hold: written by an earlier process that had this pid (a
  // restarted container numbers its processes the same way every time).
  if (holder.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = processStartTime(holder.pid);
  return !holder.started || !started || started === holder.started;
}

/**
 * Takes `<dataDir>.lock` for this process, or throws DataDirInUseError naming the live holder.
 * The lock file is written complete under a private name and linked into place (atomic: of two
 * processes exactly one succeeds). A lock left by a process that no longer runs (killed with
 * SIGKILL, a power cut) is moved aside atomically and taken over. Released by release() and, as
 * a last resort, when the process exits.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = `${path.resolve(dataDir)}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  const mine = `${process.pid}\n${processStartTime(process.pid)}\n`;
  const unique = () => `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
  const draft = unique();
  writeFileSync(draft, mine, { mode: 0o644 });
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        linkSync(draft, file);
        return held(file, mine);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const current = readHolder(file);
      if (!current) continue; // released meanwhile
      if (current.holder && holderIsAlive(file, current.holder))
        throw new DataDirInUseError(dataDir, current.holder.pid);
      takeOverStale(file, current.text, unique());
    }
    throw new Error(`could not take ${file}: other processes keep taking and releasing it`);
  } finally {
    unlinkSync(draft);
  }
}

/** Moves a stale lock aside and deletes it, unless another process replaced it meanwhile. */
function takeOverStale(file: string, staleText: string, aside: string): void {
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // another process moved it
    throw error;
  }
  try {
    if (readFileSync(aside, "utf8") !== staleText) {
      // A live holder's lock, written after we read the stale one: put it back.
      linkSync(aside, file);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    unlinkSync(aside);
  }
}

function held(file: string, mine: string): DataDirLock {
  heldHere.add(file);
  const release = () => {
    if (!heldHere.delete(file)) return;
    process.removeListener("exit", release);
    try {
      if (readFileSync(file, "utf8") === mine) unlinkSync(file);
    } catch {
      // already gone
    }
  };
  process.on("exit", release);
  return { release };
}
