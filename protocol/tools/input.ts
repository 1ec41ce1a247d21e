import { z } from "zod";
import { field, id, pageLimit } from "../fields.js";
import { READ_ONLY, changes, type InputContract, type ObservationContract } from "../tool-contract.js";

// Ordered input: a lease plus a decimal inputSequence, deduplicated per lease — not the durable
// request-key pattern, so these tools take no retryEpoch or requestKey and make no receipt.

/** Decimal ordered input counter; every lease starts at "1". */
export const inputSequence = z.string().regex(/^[1-9][0-9]{0,18}$/, "a decimal inputSequence: 1, 2, 3 ...");

/** What inputSequence means to an agent, said once for the three ordered input tools. */
const inputSequenceField = inputSequence.describe(
  'This lease\'s next input counter as a decimal string: "1" for the first input under a new lease (lomi_lease_acquire\'s nextInputSequence), then "2", "3" ... shared by text and Ctrl+C on a terminal. Resending a used sequence with the exact same payload acknowledges the earlier dispatch and sends nothing (the retry after a lost reply); another payload under it is INPUT_SEQUENCE_CONFLICT, a skipped number INPUT_SEQUENCE_GAP.',
);

export const terminalRuntime = z.strictObject({
  kind: z.literal("terminal").describe('"terminal": the lease covers a terminal session.'),
  terminalSessionId: field.terminalSessionId,
});
export const androidRuntime = z.strictObject({
  kind: z.literal("android").describe('"android": the lease covers one generation of an Android runtime.'),
  panelId: field.panelId,
  generation: field.androidGeneration,
});
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
const inputText = z
  .string()
  .min(1)
  .max(TERMINAL_INPUT_MAX)
  .describe(`The text to type, sent as is: 1-${TERMINAL_INPUT_MAX} characters (in a terminal, end it with "\\n" to press Enter).`);
const screenCoordinate = (axis: string) =>
  z
    .number()
    .int()
    .nonnegative()
    .describe(`The ${axis} coordinate in device pixels, from 0; Lomi refuses a point outside the device's screen with OUT_OF_RANGE.`);
export const textInput = z.strictObject({ kind: z.literal("text").describe('"text": type text.'), text: inputText });
export const tapInput = z.strictObject({
  kind: z.literal("tap").describe('"tap": tap the screen at x, y.'),
  x: screenCoordinate("horizontal"),
  y: screenCoordinate("vertical"),
});
export const keyInput = z.strictObject({
  kind: z.literal("key").describe('"key": press a device key.'),
  key: z.enum(ANDROID_KEYS).describe(`The device key to press: ${ANDROID_KEYS.join(", ")}.`),
});
export const androidInputPayload = z
  .discriminatedUnion("kind", [textInput, tapInput, keyInput])
  .describe('Exactly one input, chosen by kind: { kind: "text", text }, { kind: "tap", x, y } or { kind: "key", key }.');

export const TERMINAL_READ_MAX = 8192;
export const TERMINAL_READ_DEFAULT = 4096;

export const terminalRead = {
  name: "lomi_terminal_read",
  kind: "observation",
  title: "Read terminal output",
  description: `Reads a bounded page (at most ${TERMINAL_READ_MAX} characters) of the output of the exact terminal session named by terminalSessionId. Continue with nextCursor. This is the terminal's output; lomi_events_read never carries it.`,
  hints: READ_ONLY,
  input: z.strictObject({
    workspaceId: field.workspaceId,
    terminalSessionId: field.terminalSessionId,
    cursor: field.cursor,
    limit: pageLimit("characters", TERMINAL_READ_MAX, TERMINAL_READ_DEFAULT),
  }),
  data: z.strictObject({ terminalSessionId: id, text: z.string(), nextCursor: z.string(), hasMore: z.boolean() }),
} satisfies ObservationContract;

export const leaseAcquire = {
  name: "lomi_lease_acquire",
  kind: "control",
  title: "Acquire an input lease",
  description:
    "Takes the input lease of a terminal session or an Android runtime generation. Any earlier lease on that runtime, this pairing's or another's, is revoked: its next input answers LEASE_EXPIRED. A lease's inputSequence starts at 1. Leases and their input histories do not survive a broker restart.",
  hints: changes({ destructive: true, idempotent: false }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    runtime: runtimeRef.describe(
      'The exact runtime to take input authority over, exactly one of { kind: "terminal", terminalSessionId } or { kind: "android", panelId, generation }.',
    ),
  }),
  data: z.strictObject({ leaseId: id, workspaceId: id, runtime: runtimeRef, nextInputSequence: inputSequence }),
} satisfies ObservationContract;

export const terminalInput = {
  name: "lomi_terminal_input" as const,
  kind: "input",
  title: "Send text to a terminal",
  description:
    "Sends text to the exact terminal session under its current lease. inputSequence is the lease's next decimal counter; the same sequence with the exact payload acknowledges the prior dispatch and sends nothing; another payload under a used sequence is INPUT_SEQUENCE_CONFLICT, a skipped one INPUT_SEQUENCE_GAP. No requestKey or retryEpoch.",
  hints: changes({ destructive: true, openWorld: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    terminalSessionId: field.terminalSessionId,
    leaseId: field.leaseId,
    inputSequence: inputSequenceField,
    text: inputText,
  }),
  data: z.strictObject({ ...inputAck, terminalSessionId: id }),
} satisfies InputContract;

export const terminalInterrupt = {
  name: "lomi_terminal_interrupt" as const,
  kind: "input",
  title: "Send Ctrl+C to a terminal",
  description:
    "Sends Ctrl+C to the exact terminal session, ordered with its text input (same lease, same inputSequence counter). Confirms dispatch of the interrupt, not that the process exited: monitor the original command's operation with lomi_operation_get.",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    terminalSessionId: field.terminalSessionId,
    leaseId: field.leaseId,
    inputSequence: inputSequenceField,
  }),
  data: z.strictObject({ ...inputAck, terminalSessionId: id, exitConfirmed: z.literal(false) }),
} satisfies InputContract;

export const androidInput = {
  name: "lomi_android_input" as const,
  kind: "input",
  title: "Send input to an Android runtime",
  description:
    "Sends a tap, a key or text to the exact Android runtime (panelId and its current generation) under its lease. Ordered like terminal input, with its own lease and inputSequence: the same sequence with the exact payload acknowledges the prior dispatch. Lomi refuses a tap outside the screen.",
  hints: changes({ destructive: true }),
  input: z.strictObject({
    workspaceId: field.workspaceId,
    panelId: field.panelId,
    generation: field.androidGeneration,
    leaseId: field.leaseId,
    inputSequence: inputSequenceField,
    input: androidInputPayload,
  }),
  data: z.strictObject({ ...inputAck, panelId: id, generation: id }),
} satisfies InputContract;

export const ORDERED_INPUT_TOOLS = [terminalInput, terminalInterrupt, androidInput] as const;
export type OrderedInputName = (typeof ORDERED_INPUT_TOOLS)[number]["name"];
export const ORDERED_INPUT_NAMES = ORDERED_INPUT_TOOLS.map((t) => t.name) as [OrderedInputName, ...OrderedInputName[]];
