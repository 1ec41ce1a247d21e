import { World, type IWorldOptions } from "@cucumber/cucumber";
import type { Envelope, ErrorEnvelope } from "../protocol/envelope.js";
import { isOneOf } from "../protocol/closed-lists.js";
import type { WorldSeed } from "../protocol/control-api.js";
import { type BrokerAdapter } from "../harness/adapters/broker-adapter.js";
import { WHY_NOT } from "../harness/run/capabilities.js";
import { clientNameOf, Driver, type CallOutcome } from "../harness/driver/driver.js";
import { sweep, unsettledOperation } from "../harness/driver/sweep.js";
import { cannotSettleUnaided } from "../harness/driver/unaided.js";
import { REFUSED_TOGETHER } from "../harness/connection/in-flight.js";
import { historyOf } from "../harness/history/format.js";
import { indexedCalls, operationNamed, receiptIn, statesShown } from "../harness/history/replies.js";
import { refusalRulesFromHistory } from "../harness/oracles/unexpected-answers.js";
import { checkHistory, type OracleVerdict } from "../harness/oracles/index.js";
import { expectedCodeRules, failureReadAsError, inputRules } from "../harness/oracles/finding-rules.js";
import type { RecordingControl } from "../harness/driver/recording-control.js";
import { BROKER_IDENTITY } from "../harness/report/scenario-findings.js";
import { configError, notApplicable, unexpectedAnswer, violation, type HarnessError } from "../harness/harness-error.js";
import { checkedReply, type McpConnection, type Reply } from "../harness/connection/mcp-connection.js";
import { contractData } from "../harness/contract-checks/reply-checks.js";
import { runParametersSchema, type RunParameters } from "../harness/run/run-parameters.js";
import type { SimulatorFixture } from "../harness/lomi/simulator-fixture.js";
import type { Rule } from "../harness/rules.js";
import { readWorldFile } from "../simulator/world-file.js";
import { canReach, isSettled, type OperationState } from "../protocol/states.js";
import type { ContractNamed, ToolName } from "../protocol/catalogue.js";
import type { DataOf } from "../protocol/tool-contract.js";
import { MUTATION_NAMES, type MutationName, type Receipt, type ReceiptOf } from "../protocol/tools/mutations.js";
import { PanelMemory } from "./panel-memory.js";
import { FileObservations } from "./file-observations.js";
import { bounded, boundedJson, oneLine } from "../harness/text/bounded-json.js";

export const DEFAULT_AGENT = "agent";
/** A clock as the harness found it at load: a scenario's fake or patched timers cannot stretch or shrink a deadline (waits: Driver.pause). */
export const realNow = performance.now.bind(performance);
/** The broker's initialize answer is reported once per run in each worker process. */
let brokerIdentified = false;
/** The run has ended: a process that makes another (teeth's judges) reports the next one's broker too. */
export const forgetBrokerIdentity = () => {
  brokerIdentified = false;
};

/** The data of a tool's ok reply, as its contract in the catalogue types it. */
export type ToolData<N extends ToolName> = DataOf<ContractNamed<N>>;
export type EventPage = ToolData<"lomi_events_read">;

export interface Agent {
  name: string;
  /** lomi_connect's data per workspace, the latest first. */
  connects: Map<string, ToolData<"lomi_connect">>;
}

/** A request the scenario sent under a name, kept whole so it can be retried exactly. */
export interface NamedRequest {
  agent: string;
  tool: string;
  args: Record<string, unknown>;
  /** The operationId from the reply, unless the reply was lost. */
  operationId: string | undefined;
  /** The broker's refusal, when it answered an error envelope: a later step needing the operation says so. */
  refusal?: Reply & { envelope: ErrorEnvelope };
}

/** An input lease the scenario acquired under a name, with the runtime it was acquired for and the dispatches made under it. */
export interface NamedLease {
  agent: string;
  workspaceId: string;
  leaseId: string;
  runtime: Record<string, unknown>;
  /** Lomi's dispatchId for each inputSequence the broker reported as newly dispatched. */
  dispatches: Map<string, string>;
}

/** The tools whose ok data carries an operation's receipt. */
const RECEIPT_TOOLS = [...MUTATION_NAMES, "lomi_operation_get", "lomi_operation_lookup", "lomi_operation_cancel"] as const;

const isReceiptOf = <T extends MutationName>(receipt: Receipt, tool: T): receipt is ReceiptOf<T> => receipt.tool === tool;

/** The scenario's world: the simulated Lomi, the broker under test, the agents and what they sent. */
export class LomiWorld extends World<RunParameters> {
  readonly run: RunParameters;
  /** Drives the broker and the simulated Lomi, and records the scenario's history (harness/driver/). */
  driver!: Driver;
  seed = 0;
  readonly agents = new Map<string, Agent>();
  readonly requests = new Map<string, NamedRequest>();
  /** The last domainRevision observed per workspace. */
  readonly revisions = new Map<string, string>();
  /** Other compare-and-set tokens the agent observed (a settings section's, a conversation's, a draft's), by name. */
  readonly tokens = new Map<string, string>();
  /** The runtime identity (terminalSessionId or Android generation) last observed per panel, and the input leases acquired by name. */
  readonly runtimes = new Map<string, string>();
  readonly leases = new Map<string, NamedLease>();
  lastReply: Reply | undefined;
  /** The reply to the last exact resend of a named request ("retries"): its refusal breaks IDEM-01, not the rule the scenario cites. */
  retried: Reply | undefined;
  /** lomi_events_read cursors per agent and workspace, and the last page read. */
  readonly eventCursors = new Map<string, string>();
  lastEventPage: EventPage | undefined;
  /** Browser snapshots, runtimes and captures the agents saw. */
  readonly panelMemory = new PanelMemory();
  /** What the agents observed of files, directories and editor documents. */
  readonly fileObservations = new FileObservations(this.tokens);
  /** An error reply no step has checked yet: the next call, or the scenario's end, fails on it. */
  private unverifiedError: (Reply & { envelope: ErrorEnvelope }) | undefined;
  /** A JSON-RPC error a call answered where MCP allows one (callAsMcpAllows), until a step checks it. */
  rpcError: { tool: string; code: number; message: string } | undefined;
  /** Leases the broker refused to grant, by the scenario's name: a step that needs one blames the refusal. */
  readonly refusedLeases = new Map<string, Reply & { envelope: ErrorEnvelope }>();
  /** The rules the scenario cites (its tags), for failure messages that quote them. */
  rules: Rule[] = [];

  constructor(options: IWorldOptions<RunParameters>) {
    super(options);
    this.run = runParametersSchema.parse(options.parameters ?? {});
  }

  // Lifecycle -------------------------------------------------------------------------------------

  async setUp(seed: number, source: string, world: WorldSeed = readWorldFile()): Promise<void> {
    this.seed = seed;
    this.driver = await Driver.start({ run: this.run, world, seed, source });
    this.driver.onConnect = (connection) => {
      if (brokerIdentified) return;
      brokerIdentified = true;
      this.attach(`${BROKER_IDENTITY}${JSON.stringify(bounded(connection.serverInfo() ?? null))}`, "text/plain");
    };
  }

  async tearDown(): Promise<void> {
    await this.driver?.stop();
  }

  /**
   * The scenario's end, as every explore run's: the reads of everything the agents were told (the
   * sweep), Lomi's pairings and ledger, then every oracle over the whole history.
   */
  async judgeHistory(): Promise<OracleVerdict[]> {
    const { agentsNotRead } = await sweep(this.driver);
    if (agentsNotRead.length > 0)
      this.attach(
        `the end-of-scenario reads left out ${agentsNotRead.join(", ")}: this broker could take no connection of theirs without a restart, or stopped answering`,
        "text/plain",
      );
    return checkHistory(historyOf(await this.driver.finish()));
  }

  get adapter(): BrokerAdapter {
    return this.driver.adapter;
  }

  get sim(): SimulatorFixture {
    return this.driver.sim;
  }

  /** The simulated Lomi's control API: what changes Lomi through it is recorded in the history. */
  get control(): RecordingControl {
    return this.driver.control;
  }

  /** Fails a scenario that let an error reply go by without a step checking it. */
  assertErrorsVerified(): void {
    const rpc = this.rpcError;
    if (rpc) throw violation(`${rpc.tool} answered the JSON-RPC error ${rpc.code} ("${oneLine(rpc.message)}") and no step checked it`);
    const e = this.unverifiedError;
    // Addressed to both readers: a broker author learns the broker refused what the scenario sent as
    // valid; a scenario author learns how to say the refusal is the point.
    if (e) {
      const { code, message } = e.envelope;
      throw this.refused(
        e,
        `the broker refused a request this scenario expected it to take: ${e.tool} answered ${code} ("${oneLine(message)}"). (Writing a scenario where that refusal is right? Check it with "Then the reply is the error ${code}".)`,
      );
    }
  }

  /**
   * A refusal of a request the scenario needed taken: a finding about that refusal, failing the rules
   * `known` names or, else, those the history shows it contradicts (harness/oracles/unexpected-answers.ts);
   * where it shows none, no rule is failed and the gate fails naming the answer.
   */
  private refused(reply: Reply & { envelope: ErrorEnvelope }, message: string, known: readonly string[] = []): HarnessError {
    if (known.length > 0) return unexpectedAnswer(message, known);
    const records = this.driver.records;
    // The history record of this call: the driver records the very arguments object the call was made with.
    const index = records.reduce((at, r, i) => (r.type === "call" && r.args === reply.args ? i : at), -1);
    const calls = indexedCalls({ records });
    const call = calls.find((c) => c.index === index);
    if (!call) return unexpectedAnswer(message, []);
    const faults = records.flatMap((r, i) => (r.type === "fault" ? [{ ...r, index: i }] : []));
    const context = { calls, crashes: faults.filter((f) => f.kind === "broker-crash").map((f) => f.index), faults };
    return unexpectedAnswer(
      message,
      refusalRulesFromHistory(
        context,
        call,
        this.rules.map((r) => r.id),
      ),
    );
  }

  // Agents and calls ------------------------------------------------------------------------------

  agent(name: string): Agent {
    let agent = this.agents.get(name);
    if (!agent) {
      agent = { name, connects: new Map() };
      this.agents.set(name, agent);
    }
    return agent;
  }

  /** "agent@2" is a second connection of the client "agent": the same pairing, another connection. */
  static clientNameOf(agentName: string): string {
    return clientNameOf(agentName);
  }

  async connection(name: string): Promise<McpConnection> {
    this.agent(name);
    await this.reach(name);
    return this.driver.connection(name);
  }

  /** The retry epochs the agents held when the broker was restarted to serve another agent: a later step sending under one depends on two connections at once. */
  private readonly epochsBeforeSwitch = new Set<string>();

  /**
   * A broker that serves one connection at a time (a stdio process) serves another agent after a
   * restart on the same store, as it would when one client goes and another comes: first every
   * operation the connected agents were told of is read until it settles (a restart would leave a
   * running one outcome_unknown, which the scenario is not about). One that does not settle within
   * --timeout-ms makes the scenario not applicable here, with the reason.
   */
  private async reach(name: string): Promise<void> {
    const d = this.driver;
    const open = d.connectionNames();
    if (d.adapter.capabilities.has("multi-connection") || d.hasConnection(name) || open.length === 0) return;
    const running = await unsettledOperation(d, open, this.run.timeoutMs);
    if (running)
      throw notApplicable(
        `${d.adapter.description} ${WHY_NOT["multi-connection"]}: serving ${name} needs a restart, and ${running.agent}'s operation ${running.operationId} is still ${running.state}: ${running.why}`,
      );
    for (const agent of this.agents.values()) for (const c of agent.connects.values()) this.epochsBeforeSwitch.add(c.retryEpoch);
    await d.crash({
      reason: `${name} connects: this broker serves one connection at a time, so a new instance on the same store serves it once the operations of ${open.join(", ")} have settled`,
    });
    await d.restart();
  }

  /** Set when a scenario expects the broker to die (a crash hook) during its next call. */
  private deathExpected = false;

  expectDeathOnNextCall(): void {
    this.deathExpected = true;
  }

  /** Calls a tool as an agent; the reply's envelope is already checked (ENV rules). */
  async call(agentName: string, tool: string, args: Record<string, unknown>): Promise<Reply> {
    this.assertErrorsVerified();
    await this.reach(agentName);
    if (this.deathExpected) return this.callIntoDeath(agentName, tool, args);
    this.agent(agentName);
    return this.took(tool, args, await this.driver.call(agentName, tool, args));
  }

  /**
   * A call made while others may be in flight (`together`): a JSON-RPC error to it is a broker that
   * cannot take calls together, answered REFUSED_TOGETHER for the caller to make it again alone;
   * any other answer, and every answer to a call made alone, is judged as `call` judges it.
   */
  async callAlongside(agentName: string, tool: string, args: Record<string, unknown>, together: boolean): Promise<Reply | typeof REFUSED_TOGETHER> {
    if (!together) return this.call(agentName, tool, args);
    this.assertErrorsVerified();
    this.agent(agentName);
    const answer = await this.driver.call(agentName, tool, args);
    return "rpcError" in answer && answer.rpcError ? REFUSED_TOGETHER : this.took(tool, args, answer);
  }

  /** A call's answer as the scenario goes on from it: its envelope checked, what it shows observed, an error left for a step to check. */
  private took(tool: string, args: Record<string, unknown>, answer: CallOutcome): Reply {
    const reply = checkedReply(tool, args, answer);
    this.observe(reply);
    this.lastReply = reply;
    this.unverifiedError = reply.envelope.status === "error" ? { ...reply, envelope: reply.envelope } : undefined;
    return reply;
  }

  /**
   * A call whose arguments MCP's own schema refuses (not a JSON object): MCP lets a server answer a
   * JSON-RPC error instead of a tool result, so one is kept for the next step to judge rather than
   * failing the call. No answer at all still fails it.
   */
  async callAsMcpAllows(agentName: string, tool: string, args: unknown): Promise<void> {
    this.assertErrorsVerified();
    this.agent(agentName);
    await this.reach(agentName);
    // The harness sends what the scenario wrote, an array or a string included: that is the point.
    const sent = args as Record<string, unknown>;
    const answer = await this.driver.call(agentName, tool, sent);
    if ("error" in answer && answer.rpcError) {
      this.rpcError = { tool, ...answer.rpcError };
      this.lastReply = undefined;
      return;
    }
    this.took(tool, sent, answer);
  }

  /**
   * The call during which the broker must die: no reply may come back. The harness then buries the
   * instance and starts a new one on the same store, as an operator would.
   */
  private async callIntoDeath(agentName: string, tool: string, args: Record<string, unknown>): Promise<Reply> {
    this.deathExpected = false;
    this.agent(agentName);
    const answer = await this.driver.call(agentName, tool, args);
    // The expected death: the connection dropped with the call unanswered.
    if ("reply" in answer)
      throw violation(`the broker answered ${tool} although its fault hook should have crashed it: ${boundedJson(answer.reply.structuredContent)}`);
    await this.crashBroker();
    await this.restartBroker();
    this.lastReply = undefined;
    return { tool, args, raw: {}, envelope: { controlApiVersion: "1.0", status: "error", code: "NATIVE_UNAVAILABLE", message: "no reply: the broker died" } };
  }

  /** Calls a tool that must succeed for the scenario to go on; answers its data as the tool's contract types it. */
  async callOk<N extends ToolName>(agentName: string, tool: N, args: Record<string, unknown>): Promise<ToolData<N>> {
    return this.dataOf(tool, await this.call(agentName, tool, args));
  }

  /** The data of an ok reply, whatever the tool; an error reply fails the step. */
  okData(reply: Reply | undefined = this.lastReply): unknown {
    if (!reply) throw configError("no reply yet");
    const envelope: Envelope = reply.envelope;
    if (envelope.status !== "ok") {
      this.unverifiedError = undefined;
      const named = failureReadAsError(reply.tool, envelope.code) ? ["OP-03"] : reply === this.retried ? ["IDEM-01"] : [];
      throw this.refused(
        { ...reply, envelope },
        `${reply.tool} answered ${envelope.code} ("${oneLine(envelope.message)}"), expected ok\nArguments: ${boundedJson(reply.args)}`,
        named,
      );
    }
    return envelope.data;
  }

  /**
   * The data of an ok reply from one of these tools, parsed by that tool's contract before a step
   * reads it: a broker's wrong-shaped reply fails the scenario naming the field, never reaches a step
   * as a type it is not. A reply from another tool is the scenario's mistake.
   */
  dataOf<N extends ToolName>(tools: N | readonly N[], reply: Reply | undefined = this.lastReply): ToolData<N> {
    if (!reply) throw configError("no reply yet");
    const wanted: readonly N[] = typeof tools === "string" ? [tools] : tools;
    const tool = wanted.find((t) => t === reply.tool);
    if (!tool) throw configError(`the step reads a reply of ${wanted.join(" or ")}, but the reply is ${reply.tool}'s`);
    return contractData(tool, this.okData(reply));
  }

  /**
   * Checks the last reply is the given error (or one of them, where a rule allows several); only
   * this clears the "unchecked error" flag. A wrong code quotes the rules and decisions that want it.
   */
  /** `breaks`: the rule another answer breaks, when the step knows it better than the scenario's tags. */
  expectError(codes: string | readonly string[], reply: Reply | undefined = this.lastReply, breaks: readonly string[] = []): ErrorEnvelope {
    if (!reply) throw configError("no reply yet");
    const wanted = typeof codes === "string" ? [codes] : codes;
    const expected = wanted.join(" or ");
    const envelope = reply.envelope;
    // Input its schema refuses breaks the rule of what was wrong with it (an unknown field SCH-01, a prototype key SCH-06, …), whatever the scenario cites.
    // Else the rule that makes the expected code the answer (docs/decisions.md included), not every rule the scenario cites.
    const schema = wanted.includes("INVALID_ARGUMENT") ? inputRules(reply.tool, reply.args) : [];
    const broken =
      schema.length > 0
        ? schema
        : breaks.length > 0
          ? breaks
          : expectedCodeRules(
              wanted,
              reply.tool,
              reply.args,
              this.rules.map((r) => r.id),
            );
    if (envelope.status !== "error") {
      throw violation(`${reply.tool} answered ok, expected ${expected}\ndata: ${boundedJson(envelope.data)}\nArguments: ${boundedJson(reply.args)}`, broken);
    }
    if (!wanted.includes(envelope.code))
      throw violation(`${reply.tool} answered ${envelope.code} ("${oneLine(envelope.message)}"), expected ${expected}${this.whyCodes(wanted)}`, broken);
    this.unverifiedError = undefined;
    return envelope;
  }

  /** The scenario's rules that name one of these codes, with their decision: why the kit wants exactly that answer. */
  private whyCodes(codes: readonly string[]): string {
    const why = this.rules.filter((r) => codes.some((c) => r.title.includes(c) || r.decision?.includes(c)));
    return why.map((r) => `\n${r.id}: ${r.title}${r.decision ? ` Decision: ${r.decision}` : ""}`).join("");
  }

  /** Keeps what ok replies showed: each workspace's latest domainRevision, panel runtimes, the states each operation was seen in. */
  private observe(reply: Reply): void {
    if (reply.envelope.status !== "ok") return;
    this.fileObservations.observe(reply);
    const { tool } = reply;
    if (tool === "lomi_connect" || tool === "lomi_panel_list") {
      const { workspaceId, domainRevision } = this.dataOf(tool, reply);
      this.revisions.set(workspaceId, domainRevision);
    }
    if (tool === "lomi_panel_list") {
      for (const p of this.dataOf(tool, reply).panels) {
        const runtime = p.kind === "terminal" ? p.terminalSessionId : p.kind === "android" ? p.generation : null;
        if (runtime) this.runtimes.set(p.panelId, runtime);
      }
    }
    if (tool === "lomi_workspace_list") {
      for (const w of this.dataOf(tool, reply).workspaces) this.revisions.set(w.workspaceId, w.domainRevision);
    }
    if (isOneOf(RECEIPT_TOOLS, tool)) {
      const op = this.receiptOf(reply);
      if (op.result && "domainRevision" in op.result) this.revisions.set(op.workspaceId, op.result.domainRevision);
    }
  }

  /** Every state the history's receipts showed of an operation, in order (harness/history/replies.ts): its events feed must agree. */
  statesShown(operationId: string): OperationState[] {
    return statesShown(indexedCalls(this.driver), operationId);
  }

  // Named requests and operations -----------------------------------------------------------------

  request(alias: string): NamedRequest {
    const r = this.requests.get(alias);
    if (!r) throw configError(`no request named "${alias}" in this scenario`);
    return r;
  }

  operationId(alias: string): string {
    const named = this.request(alias);
    if (named.refusal) {
      const { code, message } = named.refusal.envelope;
      throw this.refused(
        named.refusal,
        `the broker refused "${alias}" (${named.tool}) with ${code} ("${oneLine(message)}"), so it has no operation; the scenario needs it admitted\nArguments: ${boundedJson(named.args)}`,
      );
    }
    if (!named.operationId) throw configError(`the reply to "${alias}" was lost: its operationId is not known to the agent`);
    return named.operationId;
  }

  /** A lease the scenario acquired by name; one the broker refused to grant is the broker's failure, one never asked for the scenario's. */
  lease(alias: string): NamedLease {
    const named = this.leases.get(alias);
    if (named) return named;
    const refused = this.refusedLeases.get(alias);
    if (refused)
      throw this.refused(
        refused,
        `the broker refused the lease "${alias}" with ${refused.envelope.code} ("${oneLine(refused.envelope.message)}"); the scenario needs it granted`,
      );
    throw configError(`no lease named "${alias}" in this scenario`);
  }

  /** Sends an operation under a name and remembers its operationId when admitted. */
  async send(alias: string, agentName: string, tool: string, args: Record<string, unknown>): Promise<Reply> {
    const dies = this.deathExpected;
    const reply = await this.call(agentName, tool, args);
    const named: NamedRequest = { agent: agentName, tool, args, operationId: undefined };
    if (!dies && reply.envelope.status === "ok") named.operationId = this.receiptOf(reply).operationId;
    if (!dies && reply.envelope.status === "error") named.refusal = { ...reply, envelope: reply.envelope };
    this.requests.set(alias, named);
    return reply;
  }

  /** Sends an operation in a workspace under the agent's retry epoch there, with a request key made from the alias. */
  async sendIn(alias: string, agentName: string, tool: string, workspaceId: string, args: Record<string, unknown>): Promise<Reply> {
    return this.send(alias, agentName, tool, {
      workspaceId,
      ...args,
      retryEpoch: this.epochFor(agentName, workspaceId).retryEpoch,
      requestKey: `${tool}.${alias}`,
    });
  }

  /** The receipt an ok reply carries (an operation tool's admission, a read, a lookup, a cancel), and whether it was a duplicate. */
  receiptOf(reply: Reply | undefined = this.lastReply): Receipt & { duplicate?: boolean } {
    const data = this.dataOf(RECEIPT_TOOLS, reply);
    return { ...data.operation, duplicate: "duplicate" in data ? data.duplicate : undefined };
  }

  async readOperation(alias: string): Promise<Receipt> {
    const r = this.request(alias);
    return (await this.callOk(r.agent, "lomi_operation_get", { operationId: this.operationId(alias) })).operation;
  }

  /**
   * Reads an operation until `done` holds for its state or the run's --timeout-ms is spent; answers
   * the last read. Waiting for it to settle (`settling`), it also stops once nothing but the scenario
   * could settle it (harness/driver/unaided.ts): the step then judges what it read, without the wait.
   */
  private async readUntil(alias: string, done: (state: OperationState) => boolean, settling: boolean): Promise<Receipt> {
    const deadline = realNow() + this.run.timeoutMs;
    let pause = 5;
    let receipt = await this.readOperation(alias);
    while (!done(receipt.state) && realNow() < deadline && !(settling && (await cannotSettleUnaided(this.driver, receipt.operationId)) !== undefined)) {
      await this.driver.pause(Math.min(pause, Math.max(0, deadline - realNow())));
      pause = Math.min(pause * 2, 100);
      receipt = await this.readOperation(alias);
    }
    return receipt;
  }

  /**
   * The rule a receipt read in a state other than `expected` contradicts, where it is the receipt's own.
   * What must read outcome_unknown is an operation unfinished at a crash after its admission — one no
   * reply had shown settled before it (DUR-01); one the agents were shown settled before the crash
   * was not, and the scenario's premise is another rule's. Against Lomi's ledger: a receipt still
   * queued while Lomi holds its dispatch reads queued for dispatched work (OP-01: queued is waiting
   * for dispatch), and one that reads succeeded before Lomi settled anything claims completion for an
   * admission (OP-01).
   */
  async stateRules(receipt: { operationId?: string; state: string }, expected: OperationState): Promise<string[]> {
    const id = receipt.operationId;
    if (expected === "outcome_unknown") {
      const records = this.driver.records;
      const shown = indexedCalls({ records }).filter((c) => id === undefined || operationNamed(c.envelope)?.operationId === id);
      const admitted = id === undefined ? 0 : (shown[0]?.index ?? 0);
      const settledBefore = (crash: number) =>
        shown.some((c) => c.index < crash && isSettled(receiptIn(c)?.state ?? "queued") && receiptIn(c)?.state !== "outcome_unknown");
      const crashes = records.flatMap((r, i) => (r.type === "fault" && r.kind === "broker-crash" && i > admitted ? [i] : []));
      return id === undefined || crashes.some((crash) => !settledBefore(crash)) ? ["DUR-01"] : [];
    }
    if (id === undefined || (receipt.state !== "queued" && receipt.state !== "succeeded")) return [];
    const mine = (await this.control.ledger()).filter((e) => e.operationId === id);
    if (receipt.state === "queued") return mine.some((e) => e.kind === "dispatch") ? ["OP-01"] : [];
    return mine.some((e) => e.kind === "settle") ? [] : ["OP-01"];
  }

  /** Reads an operation until it settles: a broker may settle in the background, in its own time. */
  settled(alias: string): Promise<Receipt> {
    return this.readUntil(alias, isSettled, true);
  }

  /**
   * Reads an operation sent to `tool` until it settles, its result typed by that tool's contract: a
   * step that reads a result names the tool it expects.
   */
  async settledAs<T extends MutationName>(alias: string, tools: T | readonly T[]): Promise<ReceiptOf<T>> {
    const wanted: readonly T[] = typeof tools === "string" ? [tools] : tools;
    const { tool: sent } = this.request(alias);
    const tool = wanted.find((t) => t === sent);
    if (!tool) throw configError(`operation "${alias}" was sent to ${sent}; the step reads a result of ${wanted.join(" or ")}`);
    const receipt = await this.settled(alias);
    if (!isReceiptOf(receipt, tool))
      throw violation(`operation "${alias}" was sent to ${tool}, but its receipt names ${receipt.tool}: ${boundedJson(receipt)}`);
    return receipt;
  }

  /** Reads an operation until it shows `target` or can no longer reach it by legal transitions (protocol/states.ts). */
  reading(alias: string, target: OperationState): Promise<Receipt> {
    return this.readUntil(alias, (state) => state === target || !canReach(state, target), isSettled(target));
  }

  token(name: string): string {
    const token = this.tokens.get(name);
    if (!token) throw configError(`no ${name} observed yet; read it first`);
    return token;
  }

  epochFor(agentName: string, workspaceId: string): { retryEpoch: string; projects: Array<{ projectId: string }> } {
    const c = this.agent(agentName).connects.get(workspaceId);
    if (!c) throw configError(`${agentName} has not connected to ${workspaceId}`);
    if (this.epochsBeforeSwitch.has(c.retryEpoch))
      throw notApplicable(
        `${this.adapter.description} ${WHY_NOT["multi-connection"]}: ${agentName}'s retry epoch in ${workspaceId} came from the instance restarted to serve another agent`,
      );
    return c;
  }

  // The broker's life ------------------------------------------------------------------------------

  /** The broker dies; the agents' MCP connections die with it, but they keep what they sent. */
  async crashBroker(): Promise<void> {
    await this.driver.crash();
  }

  async restartBroker(): Promise<void> {
    await this.driver.restart();
  }

  /** A new broker instance on the same store with these fault hooks armed (each fires once). */
  async armBrokerFaults(faults: string[]): Promise<void> {
    await this.driver.armFaults(faults);
  }

  // Ledger ----------------------------------------------------------------------------------------

  /** The native dispatches Lomi saw for a named request (matched by request key and tool). */
  async dispatchesOf(alias: string) {
    const r = this.request(alias);
    return (await this.control.ledger()).filter((e) => e.kind === "dispatch" && e.tool === r.tool && e.detail.args.requestKey === r.args.requestKey);
  }
}
