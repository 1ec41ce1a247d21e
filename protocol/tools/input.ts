import { z } from "zod";
import { id } from "../fields.js";
import type { InputContract, ObservationContract } from "../tool-contract.js";

// Ordered input: a lease plus a decimal inputSequence, deduplicated per lease — not the durable
// request-key pattern, so these tools take no retryEpoch or requestKey and make no receipt.

/** Decimal ordered input counter; every lease starts at "1". */
export const inputSequence = z.string().regex(/^[1-9][0-9]{0,18}$/, "a decimal inputSequence: 1, 2, 3 ...");

export const terminalRuntime = z.strictObject({ kind: z.literal("terminal"), terminalSessionId: id });
export const androidRuntime = z.strictObject({ kind: z.literal("android"), panelId: id, generation: id });
/** The exact runtime a lease gives input authority over: exactly one variant. */
export const runtimeRef = z.discriminatedUnion("kind", [terminalRuntime, androidRuntime]);
export type RuntimeRef = z.infer<typeof runtimeRef>;

export const ACKNOWLEDGEMENTS = ["dispatched", "prior-dispatch"] as const;

/** What an accepted input answers: Lomi's dispatch, new or the one an earlier identical input made. */
const inputAck = {
  leaseId: id,
  inputSequence,
  /** Lomi's identifier of the dispatch; a duplicate answers the earlier dispatch's. */
  dispatchId: id,
  acknowledged: z.enum(ACKNOWLEDGEMENTS),
};

export const TERMINAL_INPUT_MAX = 4096;
export const ANDROID_KEYS = ["back", "home", "enter", "app-switch"] as const;
export const textInput = z.strictObject({ kind: z.literal("text"), text: z.string().min(1).max(TERMINAL_INPUT_MAX) });
export const tapInput = z.strictObject({ kind: z.literal("tap"), x: z.number().int().nonnegative(), y: z.number().int().nonnegative() });
export const keyInput = z.strictObject({ kind: z.literal("key"), key: z.enum(ANDROID_KEYS) });
export const androidInputPayload = z.discriminatedUnion("kind", [textInput, tapInput, keyInput]);

export const TERMINAL_READ_MAX = 8192;

export const terminalRead = {
  name: "lomi_terminal_read",
  kind: "observation",
  title: "Read terminal output",
  description: `Reads a bounded page (at most ${TERMINAL_READ_MAX} characters) of the output of the exact terminal session named by terminalSessionId. Continue with nextCursor. This is the terminal's output; lomi_events_read never carries it.`,
  input: z.strictObject({
    workspaceId: id,
    terminalSessionId: id,
    cursor: z.string().regex(/^[0-9]{1,19}$/, "a cursor from an earlier page").optional(),
    limit: z.number().int().min(1).max(TERMINAL_READ_MAX).optional(),
  }),
  data: z.strictObject({ terminalSessionId: id, text: z.string(), nextCursor: z.string(), hasMore: z.boolean() }),
} satisfies ObservationContract;

export const leaseAcquire = {
  name: "lomi_lease_acquire",
  kind: "control",
  title: "Acquire an input lease",
  description:
    "Takes the input lease of a terminal session or an Android runtime generation. Any earlier lease on that runtime, this pairing's or another's, is revoked: its next input answers LEASE_EXPIRED. A lease's inputSequence starts at 1. Leases and their input histories do not survive a broker restart.",
  input: z.strictObject({ workspaceId: id, runtime: runtimeRef }),
  data: z.strictObject({ leaseId: id, workspaceId: id, runtime: runtimeRef, nextInputSequence: inputSequence }),
} satisfies ObservationContract;

export const terminalInput = {
  name: "lomi_terminal_input" as const,
  kind: "input",
  title: "Send text to a terminal",
  description:
    "Sends text to the exact terminal session under its current lease. inputSequence is the lease's next decimal counter; the same sequence with the exact payload acknowledges the prior dispatch and sends nothing; another payload under a used sequence is INPUT_SEQUENCE_CONFLICT, a skipped one INPUT_SEQUENCE_GAP. No requestKey or retryEpoch.",
  input: z.strictObject({
    workspaceId: id,
    terminalSessionId: id,
    leaseId: id,
    inputSequence,
    text: textInput.shape.text,
  }),
  data: z.strictObject({ ...inputAck, terminalSessionId: id }),
} satisfies InputContract;

export const terminalInterrupt = {
  name: "lomi_terminal_interrupt" as const,
  kind: "input",
  title: "Send Ctrl+C to a terminal",
  description:
    "Sends Ctrl+C to the exact terminal session, ordered with its text input (same lease, same inputSequence counter). Confirms dispatch of the interrupt, not that the process exited: monitor the original command's operation with lomi_operation_get.",
  input: z.strictObject({ workspaceId: id, terminalSessionId: id, leaseId: id, inputSequence }),
  data: z.strictObject({ ...inputAck, terminalSessionId: id, exitConfirmed: z.literal(false) }),
} satisfies InputContract;

export const androidInput = {
  name: "lomi_android_input" as const,
  kind: "input",
  title: "Send input to an Android runtime",
  description:
    "Sends a tap, a key or text to the exact Android runtime (panelId and its current generation) under its lease. Ordered like terminal input, with its own lease and inputSequence: the same sequence with the exact payload acknowledges the prior dispatch. Lomi refuses a tap outside the screen.",
  input: z.strictObject({ workspaceId: id, panelId: id, generation: id, leaseId: id, inputSequence, input: androidInputPayload }),
  data: z.strictObject({ ...inputAck, panelId: id, generation: id }),
} satisfies InputContract;

export const ORDERED_INPUT_TOOLS = [terminalInput, terminalInterrupt, androidInput] as const;
export type OrderedInputName = (typeof ORDERED_INPUT_TOOLS)[number]["name"];
export const ORDERED_INPUT_NAMES = ORDERED_INPUT_TOOLS.map((t) => t.name) as [OrderedInputName, ...OrderedInputName[]];
