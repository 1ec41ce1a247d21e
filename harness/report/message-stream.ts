import { readFileSync } from "node:fs";
import type { Envelope } from "@cucumber/messages";
import { collectMessages, type MessageCollector } from "./message-collector.js";

/** A messages.ndjson file, one envelope a line: cucumber's own output, so its lines are read as its Envelope type. Read once a run; every report reads them as the collector folds them. */
export function readEnvelopes(file: string): Envelope[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Envelope);
}

/** A messages.ndjson file, folded by the collector. */
export const readMessages = (file: string): MessageCollector => collectMessages(readEnvelopes(file));
