import { openSqliteStore } from "../reference-broker/sqlite-receipt-store.js";
import { onReopening, withStoreFile } from "./doctored-store.js";
import type { Mutant } from "./mutant.js";

export const durUnknownReportedSucceeded: Mutant = {
  name: "dur-unknown-reported-succeeded",
  family: "DUR",
  // Unfinished at the crash, it must read outcome_unknown (DUR-01, DUR-06). Not OP-04: a receipt
  // settled by nobody across a restart is DUR-01's, as effect-state-agrees says. Not CAP-04: a
  // reconciliation may remove what reads succeeded, and CAP-04's scenario stops at its premise (the
  // receipt must read outcome_unknown first, DUR-01's check).
  breaks: ["DUR-01", "DUR-06"],
  defect: "on restart, operations left unfinished are recorded succeeded with their effect complete, where the truth is unknown",
  needs: "crash",
  // One crash scenario shows it (of DUR-01's six, each a broker restart over stdio).
  shownBy: "@DUR-01 and @OP-03",
  parts: {
    openStore: onReopening((file, now, _native, options) => {
      withStoreFile(file, (db, where) => db.prepare(`UPDATE receipts SET state = 'succeeded', effect_state = 'complete' WHERE ${where}`).run());
      return openSqliteStore(file, now, options);
    }),
  },
};
