import { isDeepStrictEqual } from "node:util";
import type { z } from "zod";
import { contractNamed, contractOf, type ContractNamed, type ToolName } from "../../protocol/catalogue.js";
import { anyEnvelopeSchema, type Envelope } from "../../protocol/envelope.js";
import { outputSchemaOf, type DataOf } from "../../protocol/tool-contract.js";
import { HarnessError, violation } from "../harness-error.js";
import { boundedJson } from "../text/bounded-json.js";
import { checkImageBlocks } from "./image-blocks.js";
import { describeIssues } from "../../protocol/schema-issues.js";

/** A tool result as the broker sent it: any object, read by the keys the ENV rules look at. */
export interface RawToolResult {
  [key: string]: unknown;
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

const describe = (value: unknown) => boundedJson(value, 600);

/** Replies (by their structuredContent, which nothing mutates) that passed, per tool and isError, with the envelope they were read as. */
const passed = new WeakMap<object, { envelope: Envelope; memos: Set<string> }>();

/**
 * The ENV rules, checked on every reply the suite receives: the envelope in structuredContent,
 * isError exactly for errors, a text block mirroring it, the tool's output schema from the catalogue,
 * and PNG image blocks that decode.
 */
export function checkEnvelope(tool: string, result: RawToolResult): Envelope {
  const sc = result.structuredContent;
  const memo = `${tool}\u0000${String(result.isError)}`;
  const known = sc !== null && typeof sc === "object" ? passed.get(sc) : undefined;
  if (known?.memos.has(memo)) return known.envelope;
  try {
    const envelope = checkedEnvelope(tool, result);
    // A reply whose only block mirrors it is judged by its structuredContent alone: the oracles,
    // which see it again in the history (its text block left out), need not parse it twice.
    if (Array.isArray(result.content) && result.content.length === 1 && typeof sc === "object" && sc !== null)
      passed.set(sc, { envelope, memos: (known?.memos ?? new Set<string>()).add(memo) });
    return envelope;
  } catch (error) {
    if (error instanceof HarnessError) throw error;
    // A reply no check can even walk (nested past the stack's depth): the broker's, never the harness's.
    throw violation(
      `${tool}'s reply cannot be read as a Lomi envelope (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})\nthe reply: ${describe(result)}`,
      ["ENV-01"],
    );
  }
}

function checkedEnvelope(tool: string, result: RawToolResult): Envelope {
  const sc = result.structuredContent;
  if (sc === undefined) throw violation(`${tool} replied without structuredContent\nthe reply: ${describe(result)}`, ["ENV-01"]);
  const loose = anyEnvelopeSchema.safeParse(sc);
  if (!loose.success)
    throw violation(`${tool}'s structuredContent is not a Lomi envelope (${loose.error.issues[0]?.message})\nstructuredContent: ${describe(sc)}`, ["ENV-01"]);
  const envelope = sc as Envelope;
  if ((result.isError === true) !== (envelope.status === "error")) {
    throw violation(`${tool} replied status "${envelope.status}" with isError ${String(result.isError)}; isError must be true exactly for errors.`, ["ENV-02"]);
  }
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  const text = blocks.find((b) => b.type === "text");
  let mirrored: unknown;
  try {
    mirrored = text?.text === undefined ? undefined : JSON.parse(text.text);
  } catch {
    mirrored = undefined;
  }
  if (!isDeepStrictEqual(mirrored, sc))
    throw violation(`${tool}'s text block does not mirror its structuredContent\nthe text block: ${describe(text)}`, ["ENV-03"]);
  const contract = contractOf(tool);
  if (contract) {
    const strict = outputSchemaOf(contract).safeParse(sc);
    if (!strict.success) throw breaksContract(tool, "reply", strict.error, sc);
  }
  checkImageBlocks(tool, result.content, envelope);
  return envelope;
}

/**
 * An ok reply's data as its tool's contract types it, parsed here rather than cast: whatever broker
 * answered, a step reads only a shape the contract allows, or the scenario fails saying what is wrong.
 */
export function contractData<N extends ToolName>(tool: N, data: unknown): DataOf<ContractNamed<N>> {
  const parsed = contractNamed(tool).data.safeParse(data);
  if (!parsed.success) throw breaksContract(tool, "data", parsed.error, data);
  // The schema just parsed is this tool's: TypeScript cannot follow a generic name to its contract's output type.
  return parsed.data as DataOf<ContractNamed<N>>;
}

function breaksContract(tool: string, what: "reply" | "data", error: z.ZodError, value: unknown) {
  return violation(`${tool}'s ${what} breaks its output schema ${describeIssues(error)}\n${what === "reply" ? "the reply" : "its data"}: ${describe(value)}`, [
    "ENV-04",
  ]);
}
