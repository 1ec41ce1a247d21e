import { buildToolResult, errorOf, type EnvelopeToolResult } from "../protocol/envelope.js";
import { asLomiError } from "../protocol/errors.js";
import type { NativeInputPayload } from "../protocol/native-bridge.js";
import type { OrderedInputName, RuntimeRef } from "../protocol/tools/input.js";
import { okReply, type Args, type CallContext } from "./rewriting-session.js";

/** The session's pairing, which the broker's own code asks Lomi for before any input. */
type WithPairing = { pairing(): Promise<string> };

/** Where an ordered input goes and what it carries, and what its acknowledgement names besides the lease and sequence. */
function routeOf(name: string, a: Args): { runtime: RuntimeRef; input: NativeInputPayload; names: Args } {
  if (name === "lomi_android_input") {
    return {
      runtime: { kind: "android", panelId: String(a.panelId), generation: String(a.generation) },
      input: a.input as NativeInputPayload,
      names: { panelId: a.panelId, generation: a.generation },
    };
  }
  const runtime: RuntimeRef = { kind: "terminal", terminalSessionId: String(a.terminalSessionId) };
  if (name === "lomi_terminal_interrupt")
    return { runtime, input: { kind: "interrupt" }, names: { terminalSessionId: a.terminalSessionId, exitConfirmed: false } };
  return { runtime, input: { kind: "text", text: String(a.text) }, names: { terminalSessionId: a.terminalSessionId } };
}

/**
 * Sends an ordered input (arguments its schema took) straight to Lomi, past the broker's input
 * histories, and answers it dispatched: what a mutant whose ordering lets an input through does.
 */
export async function sentPastTheHistory({ core, session }: CallContext, name: string, a: Args): Promise<EnvelopeToolResult> {
  const { runtime, input, names } = routeOf(name, a);
  try {
    const pairingId = await (session as unknown as WithPairing).pairing();
    const { dispatchId } = await core.native.input({
      pairingId,
      tool: name as OrderedInputName,
      workspaceId: String(a.workspaceId),
      leaseId: String(a.leaseId),
      runtime,
      inputSequence: String(a.inputSequence),
      input,
    });
    return okReply({ leaseId: a.leaseId, inputSequence: a.inputSequence, dispatchId, acknowledged: "dispatched", ...names });
  } catch (error) {
    return buildToolResult(errorOf(asLomiError(error)));
  }
}
