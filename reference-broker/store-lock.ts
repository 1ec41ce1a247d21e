import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { LomiError, messageOf, systemCodeOf } from "../protocol/errors.js";

/** Whether a process with this pid is alive (signal 0 tests without sending anything). */
export function processIsAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return systemCodeOf(error) === "EPERM";
  }
}

/**
 * Keeps a second broker instance off a store with a lock file beside it (STORE.lock, holding the
 * owner's pid) instead of SQLite's exclusive lock. A lock whose owner died (SIGKILL leaves it
 * behind) is taken over; one whose owner lives refuses with STORE_UNAVAILABLE. Answers the release.
 */
export function takePidLock(storeFile: string, pid: number = process.pid): () => void {
  const lockFile = `${storeFile}.lock`;
  const mine = String(pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockFile, mine, { flag: "wx" });
      // Once: a broker that crashes at a fault point closes its store, and the harness that abandons it closes it again.
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        // Gone already: an instance that took it over (wrongly) removed it.
        if (existsSync(lockFile) && readFileSync(lockFile, "utf8").trim() === mine) unlinkSync(lockFile);
      };
    } catch (error) {
      if (systemCodeOf(error) !== "EEXIST")
        throw new LomiError("STORE_UNAVAILABLE", `The receipt store lock ${lockFile} cannot be written: ${messageOf(error)}`);
    }
    const owner = Number(readFileSync(lockFile, "utf8").trim());
    // A lock of this very pid was left by an instance abandoned in this process (an in-process crash): stale too.
    if (Number.isInteger(owner) && owner !== pid && processIsAlive(owner)) {
      throw new LomiError("STORE_UNAVAILABLE", `The receipt store ${storeFile} is in use by another broker instance (pid ${owner} holds ${lockFile}).`);
    }
    unlinkSync(lockFile);
  }
  throw new LomiError("STORE_UNAVAILABLE", `The receipt store ${storeFile} is in use: ${lockFile} keeps reappearing.`);
}
