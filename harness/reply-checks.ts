import { isDeepStrictEqual } from "node:util";
import { contractOf } from "../protocol/catalogue.js";
import { anyEnvelopeSchema, type Envelope } from "../protocol/envelope.js";
import { outputSchemaOf } from "../protocol/tool-contract.js";
import { violation } from "./harness-error.js";
import { checkImageBlocks } from "./image-blocks.js";

export interface RawToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean;
}

const describe = (value: unknown) => JSON.stringify(value)?.slice(0, 600);

/**
 * The ENV rules, checked on every reply the suite receives: the envelope in structuredContent,
 * isError exactly for errors, a text block mirroring it, the tool's output schema from the catalogue,
 * and PNG image blocks that decode.
 */
export function checkEnvelope(tool: string, result: RawToolResult): Envelope {
  const sc = result.structuredContent;
  if (sc === undefined) throw violation(`[ENV-01] ${tool} replied without structuredContent: ${describe(result)}`);
  const loose = anyEnvelopeSchema.safeParse(sc);
  if (!loose.success) throw violation(`[ENV-01] ${tool}'s structuredContent is not a Lomi envelope (${loose.error.issues[0]?.message}): ${describe(sc)}`);
  const envelope = sc as Envelope;
  if ((result.isError === true) !== (envelope.status === "error")) {
    throw violation(`[ENV-02] ${tool} replied status "${envelope.status}" with isError ${String(result.isError)}; isError must be true exactly for errors.`);
  }
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ type?: string; text?: string }>) : [];
  const text = blocks.find((b) => b.type === "text");
  let mirrored: unknown;
  try {
    mirrored = text?.text === undefined ? undefined : JSON.parse(text.text);
  } catch {
    mirrored = undefined;
  }
  if (!isDeepStrictEqual(mirrored, sc)) throw violation(`[ENV-03] ${tool}'s text block does not mirror its structuredContent: ${describe(text)}`);
  const contract = contractOf(tool);
  if (contract) {
    const strict = outputSchemaOf(contract).safeParse(sc);
    if (!strict.success) {
      const issue = strict.error.issues[0];
      throw violation(`[ENV-04] ${tool}'s reply breaks its output schema at ${issue?.path.join(".") || "(root)"}: ${issue?.message}. Reply: ${describe(sc)}`);
    }
  }
  checkImageBlocks(tool, result.content, envelope);
  return envelope;
}
