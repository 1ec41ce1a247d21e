import type { EnvelopeToolResult } from "../protocol/envelope.js";
import type { Mutant } from "./mutant.js";
import { okDataOf, sessionWrappingPicked } from "./rewriting-session.js";

/** Per connection, the first capture of each panel, answered again to every later capture of it. */
const capturesBy = new WeakMap<object, Map<string, EnvelopeToolResult>>();

export const envCaptureCached: Mutant = {
  name: "env-capture-cached",
  family: "ENV",
  breaks: ["ENV-11"],
  defect: "the broker keeps each panel's first capture and answers every later capture of that panel from it, whatever the panel shows now",
  parts: {
    session: sessionWrappingPicked(
      ({ tool }) => tool === "lomi_capture",
      async ({ call, session }, name, args) => {
        const cache = capturesBy.get(session) ?? new Map<string, EnvelopeToolResult>();
        capturesBy.set(session, cache);
        const key = `${String(args.workspaceId)}/${String(args.panelId)}`;
        const cached = cache.get(key);
        if (cached) return cached;
        const reply = await call(name, args);
        if (okDataOf(reply)) cache.set(key, reply);
        return reply;
      },
    ),
  },
};
