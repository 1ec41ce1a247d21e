import { rmSync } from "node:fs";
import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import type { Mutant } from "./mutant.js";

export const durLockFileTakenOver: Mutant = {
  name: "dur-lock-file-taken-over",
  family: "DUR",
  breaks: ["DUR-07"],
  defect:
    "the broker keeps other instances off its store with a lock file beside it, but takes every lock file it finds for one a crash left behind: a second instance removes the first's lock and runs on the same store",
  parts: {
    openStore: (file, now, _native, options) => {
      // "A lock file at start can only be a crashed instance's": the owner is never asked whether it lives.
      rmSync(`${file}.lock`, { force: true });
      return openSqliteStore(file, now, { ...options, lock: "pid-file" });
    },
  },
};
