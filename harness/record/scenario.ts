import type { WorldSeed } from "../../protocol/control-api.js";
import { readWorldFile } from "../../simulator/world-file.js";
import type { CallRecord, History, HistoryRecord } from "../history/format.js";
import { isOperationTool, looseEnvelope, receiptIn, type IndexedCall } from "../history/replies.js";
import { canonical } from "../text/canonical-json.js";
import type { OracleVerdict } from "../oracles/index.js";
import { getOrInsert } from "../map-entry.js";

/**
 * What the recorded session had learnt by a point, so a later call's arguments can name it as a
 * scenario does: by placeholder ({{epoch:WS}}, {{revision:WS}}, {{op:ALIAS}}), not by a value only
 * that session's broker gave.
 */
interface Learnt {
  epochs: Map<string, string>;
  revisions: Map<string, string>;
  /** operationId → the alias of the call in the skeleton that admitted it. */
  aliases: Map<string, string>;
}

const quoted = (s: string) => JSON.stringify(s);
const indexedCall = (r: CallRecord, index: number): IndexedCall => ({
  ...r,
  index,
  envelope: r.reply.status === "answered" ? looseEnvelope(r.reply.structuredContent) : undefined,
});

/** Recorded workspace IDs as the default world's: kept when it has them, else given its workspaces in turn. */
function workspaceMapper(world: WorldSeed): (id: string) => string {
  const known = world.workspaces.map((w) => w.workspaceId);
  const mapped = new Map<string, string>();
  return (id) => {
    if (known.includes(id)) return id;
    // A world without workspaces (none to give) keeps the recorded one.
    return getOrInsert(mapped, id, () => known[mapped.size % known.length] ?? id);
  };
}

/** A call's arguments with what the session learnt replaced by placeholders and its workspaces mapped. */
function scenarioArgs(args: Record<string, unknown>, learnt: Learnt, workspace: (id: string) => string): Record<string, unknown> {
  const ws = typeof args.workspaceId === "string" ? args.workspaceId : undefined;
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => {
      if (typeof value !== "string") return [key, value];
      if (key === "workspaceId") return [key, workspace(value)];
      if (key === "retryEpoch" && ws && learnt.epochs.get(ws) === value) return [key, `{{epoch:${workspace(ws)}}}`];
      if (key === "expectedRevision" && ws && learnt.revisions.get(ws) === value) return [key, `{{revision:${workspace(ws)}}}`];
      if (key === "operationId" && learnt.aliases.has(value)) return [key, `{{op:${learnt.aliases.get(value)}}}`];
      return [key, value];
    }),
  );
}

/** What a reply taught the session: an epoch and revision from lomi_connect, a revision from a panel list. */
function learn(call: IndexedCall, learnt: Learnt): void {
  const ws = typeof call.args.workspaceId === "string" ? call.args.workspaceId : undefined;
  if (!ws || call.envelope?.status !== "ok") return;
  const data = call.envelope.data;
  if (call.tool === "lomi_connect" && typeof data.retryEpoch === "string") learnt.epochs.set(ws, data.retryEpoch);
  if (typeof data.domainRevision === "string") learnt.revisions.set(ws, data.domainRevision);
}

function replyText(call: CallRecord): string {
  if (call.reply.status === "lost") return `no reply (${call.reply.reason})`;
  const env = looseEnvelope(call.reply.structuredContent);
  const op = receiptIn(indexedCall(call, 0));
  return env === undefined
    ? "a reply that is not an envelope"
    : env.status === "error"
      ? `error ${env.code}, isError ${String(call.reply.isError)}`
      : `ok${op ? ` (${op.state}, effectState ${op.effectState})` : ""}, isError ${String(call.reply.isError)}`;
}

/**
 * The records a violation's exchange needs: those it cites, the admission of each operation a cited
 * call names, and every broker crash between the first and the last of them.
 */
function exchange(records: readonly HistoryRecord[], cited: readonly number[]): number[] {
  const wanted = new Set(cited);
  for (const i of cited) {
    const r = records[i];
    if (r?.type !== "call" || typeof r.args.operationId !== "string") continue;
    const admittedAt = records.findIndex(
      (a, j) => a.type === "call" && isOperationTool(a.tool) && receiptIn(indexedCall(a, j))?.operationId === r.args.operationId,
    );
    if (admittedAt !== -1) wanted.add(admittedAt);
  }
  const sorted = [...wanted].sort((a, b) => a - b);
  const [first, last] = [sorted[0], sorted.at(-1)];
  if (first !== undefined && last !== undefined)
    records.forEach((r, i) => r.type === "fault" && r.kind === "broker-crash" && i > first && i < last && wanted.add(i));
  return [...wanted].sort((a, b) => a - b);
}

/**
 * `check --scenario`: each violation's exchange as a Gherkin scenario in the suite's step vocabulary,
 * tagged with the rules the finding breaks, the recorded replies as comments. The suite's oracles judge every
 * scenario's history, so the skeleton fails a broker that still does what was recorded; a team adds
 * the Then steps that say what the rule requires, and keeps it as a regression scenario.
 */
export function scenarioSkeleton(history: History, verdicts: readonly OracleVerdict[], world: WorldSeed = readWorldFile()): string {
  const workspace = workspaceMapper(world);
  const agents = new Map<string, string>();
  const agentStep = (name: string) => {
    return getOrInsert(agents, name, () => (agents.size === 0 ? "the agent" : `agent ${quoted(name)}`));
  };
  const scenarios: string[] = [];
  for (const v of verdicts) {
    if (v.verdict !== "fail") continue;
    for (const x of v.violations) {
      const learnt: Learnt = { epochs: new Map(), revisions: new Map(), aliases: new Map() };
      const included = new Set(exchange(history.records, x.records));
      const steps: string[] = [];
      const connected = new Set<string>();
      /** Operation calls sent so far, by retry identity: a later call under one is a retry. */
      const sent = new Map<string, { alias: string; args: Record<string, unknown> }>();
      history.records.forEach((r, i) => {
        if (r.type === "fault" && included.has(i)) steps.push(`    When the broker crashes and restarts`);
        if (r.type !== "call") return;
        const call = indexedCall(r, i);
        if (included.has(i)) {
          const who = agentStep(r.agent);
          const ws = typeof r.args.workspaceId === "string" ? workspace(r.args.workspaceId) : undefined;
          // A connection the exchange does not make itself is its scenario's Given.
          if (ws && !connected.has(`${who}\u0000${ws}`)) {
            connected.add(`${who}\u0000${ws}`);
            if (r.tool !== "lomi_connect") steps.unshift(`    Given ${who} is connected to workspace ${quoted(ws)}`);
          }
          const alias = `${r.tool.replace(/^lomi_/, "")}-${i}`;
          const cite = x.records.includes(i) ? ` — cited: ${x.message}` : "";
          steps.push(`    # record ${i}: ${replyText(r)}${cite}`);
          const identity = isOperationTool(r.tool)
            ? `${r.agent}\u0000${r.tool}\u0000${String(r.args.retryEpoch)}\u0000${String(r.args.requestKey)}`
            : undefined;
          const earlier = identity === undefined ? undefined : sent.get(identity);
          const changed = earlier ? Object.keys({ ...earlier.args, ...r.args }).filter((k) => canonical(earlier.args[k]) !== canonical(r.args[k])) : [];
          const [onlyChanged] = changed;
          const changedTo = onlyChanged === undefined ? undefined : r.args[onlyChanged];
          // A retry is written as one, so it sends what the first call sent (a placeholder would read anew).
          if (earlier && changed.length === 0) steps.push(`    When ${who} retries ${quoted(earlier.alias)}`);
          else if (earlier && changed.length === 1 && typeof changedTo === "string")
            steps.push(`    When ${who} retries ${quoted(earlier.alias)} with ${onlyChanged} changed to ${quoted(changedTo)}`);
          else {
            const args = JSON.stringify(scenarioArgs(r.args, learnt, workspace));
            steps.push(
              isOperationTool(r.tool) ? `    When ${who} sends ${r.tool} as ${quoted(alias)} with:` : `    When ${who} calls ${r.tool} with:`,
              `      """`,
              `      ${args}`,
              `      """`,
            );
            if (identity !== undefined) sent.set(identity, { alias, args: r.args });
          }
          const op = receiptIn(call);
          if (op && isOperationTool(r.tool) && !learnt.aliases.has(op.operationId)) learnt.aliases.set(op.operationId, earlier?.alias ?? alias);
        }
        learn(call, learnt);
      });
      scenarios.push(
        [
          `  ${x.rules.map((r) => `@${r}`).join(" ")}`,
          `  Scenario: Recorded — ${v.title} (records ${x.records.join(", ")})`,
          `    # ${v.id}: ${x.message}`,
          ...steps,
          `    # Then: what ${x.rules.join(", ")} require${x.rules.length === 1 ? "s" : ""} here; the ${v.id} oracle judges this scenario's history after its steps either way`,
        ].join("\n"),
      );
    }
  }
  if (scenarios.length === 0) return "# no violation: no scenario to write\n";
  const renamed = [...agents.entries()].filter(([, step]) => step === "the agent").map(([name]) => `# "the agent" is the recorded agent ${quoted(name)}`);
  return `${["# A Gherkin skeleton of each violating exchange, for features/ (docs/writing-scenarios.md)", ...renamed, "Feature: Found in recorded traffic", "", scenarios.join("\n\n")].join("\n")}\n`;
}
