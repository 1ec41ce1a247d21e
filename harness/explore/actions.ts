import fc from "fast-check";
import { z } from "zod";
import { LomiError } from "../../protocol/errors.js";
import { connect, epochOf, forgetEpochs, observe, pick, submit, WORKSPACE, type Model, type ModelLease, type SentInput } from "./model.js";
import { isSettled } from "../../protocol/states.js";
import { AGENTS, type AgentName } from "./system.js";
import type { ExploreSystem } from "./system.js";

/** One generated step: agents' calls or a fault; `label` is what a shrunk sequence prints. */
class Step implements fc.AsyncCommand<Model, ExploreSystem> {
  constructor(
    readonly label: string,
    private readonly when: (m: Model) => boolean,
    private readonly act: (m: Model, s: ExploreSystem) => Promise<void>,
  ) {}
  check(m: Readonly<Model>): boolean {
    return this.when(m);
  }
  run(m: Model, s: ExploreSystem): Promise<void> {
    s.steps.push(this.label);
    return this.act(m, s);
  }
  toString(): string {
    return this.label;
  }
}

const always = () => true;

/** A step about one of the model's operations, terminals or leases: it runs only when there is one, on the one `n` picks. */
function stepOn<T>(label: string, items: (m: Model) => readonly T[], n: number, act: (item: T, m: Model, s: ExploreSystem) => Promise<void>): Step {
  return new Step(
    label,
    (m) => items(m).length > 0,
    async (m, s) => {
      const item = pick(items(m), n);
      if (item !== undefined) await act(item, m, s);
    },
  );
}

/** The agent that is not `a`. */
const otherThan = (a: AgentName): AgentName => (a === AGENTS[0] ? AGENTS[1] : AGENTS[0]);
/** Which of the run's operations, terminals or leases a step means; small, so shrunk sequences read well. */
const slot = fc.nat({ max: 15 });
const agent = fc.constantFrom(...AGENTS);
const COMMANDS = ["npm test", "npm run build", "npm run dev", "tail -f server.log", "sleep-unknown"] as const;
const HOUR = 3_600_000;
const STRANGER = "agent-stranger";
const known = (m: Model) => m.operations.filter((o) => o.operationId !== undefined);

/** Control API refusals (no such held dispatch, no such decision) make a fault step a no-op, never a failure. */
async function tolerate(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof LomiError)) throw error;
  }
}

// Agents' calls ------------------------------------------------------------------------------------

/** The run's n-th new terminal, in ws-alpha unless `where` says otherwise (the same arguments, in the same order, wherever explore makes one). */
const terminalCreate = (
  n: number,
  expectedRevision: string,
  retryEpoch: string,
  where: { workspaceId: string; projectId?: string } = { workspaceId: WORKSPACE },
) => ({
  ...where,
  cwdRelative: "",
  title: `T${n}`,
  expectedRevision,
  retryEpoch,
  requestKey: `create-${n}`,
});

const create = agent.map(
  (given) =>
    new Step(`${given}: lomi_terminal_create`, always, async (m, s) => {
      const a = s.agentFor(given);
      const retryEpoch = await epochOf(m, s, a);
      if (!retryEpoch) return;
      const n = ++m.counter;
      await submit(m, s, a, "lomi_terminal_create", terminalCreate(n, m.revision, retryEpoch));
    }),
);

const run = fc.tuple(agent, slot, fc.constantFrom(...COMMANDS), fc.boolean()).map(
  ([given, t, command, staleEpoch]) =>
    new Step(
      `${given}: lomi_terminal_run "${command}" in terminal #${t}${staleEpoch ? " under a stale epoch" : ""}`,
      (m) => m.terminals.length > 0 && (!staleEpoch || m.staleEpochs.length > 0),
      async (m, s) => {
        const a = s.agentFor(given);
        const current = await epochOf(m, s, a);
        const retryEpoch = staleEpoch ? m.staleEpochs.filter((e) => e.agent === a).at(-1)?.retryEpoch : current;
        const terminal = pick(m.terminals, t);
        if (!retryEpoch || !terminal) return;
        const n = ++m.counter;
        await submit(m, s, a, "lomi_terminal_run", {
          workspaceId: WORKSPACE,
          terminalSessionId: terminal.terminalSessionId,
          command,
          retryEpoch,
          requestKey: `run-${n}`,
        });
      },
    ),
);

/** Pages of the world's web (fixtures/pages): one that loads, one its server answers 404 (loaded too), one no server answers (a panel opens, no page loads). */
const PAGES = ["https://docs.lomi.test/", "https://docs.lomi.test/missing.html", "https://nowhere.lomi.test/"] as const;

/** A browser panel opened on a page: a layout mutation, so under the domainRevision last seen. */
const browserOpen = fc.tuple(agent, fc.constantFrom(...PAGES)).map(
  ([given, url]) =>
    new Step(`${given}: lomi_browser_open ${url}`, always, async (m, s) => {
      const a = s.agentFor(given);
      const retryEpoch = await epochOf(m, s, a);
      if (!retryEpoch) return;
      const n = ++m.counter;
      await submit(m, s, a, "lomi_browser_open", { workspaceId: WORKSPACE, url, expectedRevision: m.revision, retryEpoch, requestKey: `open-${n}` });
    }),
);

/** A project file of the world with Windows line endings (fixtures/worlds/default.json): its bytes must reach Lomi as sent. */
const CRLF_FILE = "scripts/test.cmd";

/** The file read, then its bytes written back (as base64, the exact bytes) with a line more in its CRLF. */
const fileWrite = agent.map(
  (given) =>
    new Step(`${given}: lomi_file_read ${CRLF_FILE}, then lomi_file_write of its bytes and a CRLF line`, always, async (m, s) => {
      const a = s.agentFor(given);
      const retryEpoch = await epochOf(m, s, a);
      const read = await s.call(a, "lomi_file_read", { workspaceId: WORKSPACE, path: CRLF_FILE });
      if (!retryEpoch || read?.status !== "ok") return;
      const n = ++m.counter;
      const content = { base64: Buffer.concat([Buffer.from(String(read.data.base64), "base64"), Buffer.from(`rem ${n}\r\n`)]).toString("base64") };
      await submit(m, s, a, "lomi_file_write", {
        workspaceId: WORKSPACE,
        path: CRLF_FILE,
        expectedDiskRevision: read.data.diskRevision,
        content,
        retryEpoch,
        requestKey: `write-${n}`,
      });
    }),
);

/** The permissions section's revision in a settings read, read loosely. */
const permissionsRevision = z.object({ permissions: z.object({ settingsRevision: z.unknown() }) });

const settings = fc.tuple(agent, fc.boolean()).map(
  ([given, allow]) =>
    new Step(`${given}: lomi_settings_update permissions allowNetwork=${allow} (asks the user)`, always, async (m, s) => {
      const a = s.agentFor(given);
      const retryEpoch = await epochOf(m, s, a);
      const read = await s.call(a, "lomi_settings_read", { workspaceId: WORKSPACE });
      if (!retryEpoch || read?.status !== "ok") return;
      const n = ++m.counter;
      // Read loosely: a reply of another shape is the envelopes oracle's to judge, and the update then names what the broker said.
      const expectedSettingsRevision = String(permissionsRevision.safeParse(read.data.sections).data?.permissions.settingsRevision);
      await submit(m, s, a, "lomi_settings_update", {
        workspaceId: WORKSPACE,
        section: "permissions",
        values: { allowNetwork: allow },
        expectedSettingsRevision,
        retryEpoch,
        requestKey: `settings-${n}`,
      });
    }),
);

/** The exact request again, from the agent's current connection: a client retrying after a lost reply. */
const retrySame = slot.map((o) =>
  stepOn(
    `retry request #${o} unchanged`,
    (m) => m.operations,
    o,
    async (op, m, s) => {
      await submit(m, s, op.agent, op.tool, op.args);
    },
  ),
);

/** The values of a settings update this explorer sent. */
const settingsValues = z.object({ allowNetwork: z.boolean() });

function changed(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  if (tool === "lomi_file_write") return { ...args, content: { text: "@echo on\r\n" } };
  if (tool === "lomi_browser_open") return { ...args, url: args.url === PAGES[0] ? PAGES[1] : PAGES[0] };
  if (tool === "lomi_terminal_run") return { ...args, command: args.command === "npm test" ? "npm run build" : "npm test" };
  if (tool === "lomi_settings_update") return { ...args, values: { allowNetwork: !settingsValues.safeParse(args.values).data?.allowNetwork } };
  return { ...args, title: `${String(args.title)}!` };
}

const retryChanged = slot.map((o) =>
  stepOn(
    `retry request #${o} with changed arguments`,
    (m) => m.operations,
    o,
    async (op, m, s) => {
      observe(m, await s.call(op.agent, op.tool, changed(op.tool, op.args)));
    },
  ),
);

const get = fc.tuple(slot, fc.boolean()).map(([o, other]) =>
  stepOn(`${other ? "the other agent" : "its agent"} reads operation #${o}`, known, o, async (op, m, s) => {
    const reader: AgentName = other ? otherThan(op.agent) : op.agent;
    observe(m, await s.call(reader, "lomi_operation_get", { operationId: op.operationId }));
  }),
);

const lookup = slot.map((o) =>
  stepOn(
    `look operation #${o} up by its key`,
    (m) => m.operations,
    o,
    async (op, m, s) => {
      observe(m, await s.call(op.agent, "lomi_operation_lookup", { retryEpoch: op.args.retryEpoch, requestKey: op.args.requestKey, tool: op.tool }));
    },
  ),
);

const cancel = slot.map((o) =>
  stepOn(`cancel operation #${o}`, known, o, async (op, m, s) => {
    observe(m, await s.call(op.agent, "lomi_operation_cancel", { operationId: op.operationId }));
  }),
);

const events = fc.tuple(agent, fc.boolean(), fc.constantFrom(undefined, 1, 3)).map(
  ([given, fromStart, limit]) =>
    new Step(`${given}: lomi_events_read ${fromStart ? "from the start" : "from its cursor"}${limit ? `, ${limit} a page` : ""}`, always, async (m, s) => {
      const a = s.agentFor(given);
      const cursor = fromStart ? undefined : m.cursors.get(a);
      const reply = await s.call(a, "lomi_events_read", { workspaceId: WORKSPACE, ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) });
      if (reply?.status === "ok") m.cursors.set(a, String(reply.data.nextCursor));
      else if (reply?.status === "error" && reply.code === "PAIRING_REQUIRED") await epochOf(m, s, a);
    }),
);

/**
 * Calls in flight together, released in an order fast-check's scheduler picks (and shrinks): the same
 * new lomi_terminal_run twice (one operation, one dispatch), a cancel and a read of the latest operation.
 */
const burst = fc.tuple(agent, slot, fc.scheduler()).map(
  ([given, t, scheduler]) =>
    new Step(
      `${given}: at once, the same new lomi_terminal_run twice, a cancel and a read of the latest operation`,
      (m) => m.terminals.length > 0,
      async (m, s) => {
        const a = s.agentFor(given);
        const retryEpoch = await epochOf(m, s, a);
        const terminal = pick(m.terminals, t);
        if (!retryEpoch || !terminal) return;
        const n = ++m.counter;
        const args = { workspaceId: WORKSPACE, terminalSessionId: terminal.terminalSessionId, command: "npm test", retryEpoch, requestKey: `run-${n}` };
        const latest = known(m)
          .filter((o) => o.agent === a)
          .at(-1);
        // In flight together: the driver marks them concurrent in the history.
        const calls: Array<() => Promise<unknown>> = [() => submit(m, s, a, "lomi_terminal_run", args), () => submit(m, s, a, "lomi_terminal_run", args)];
        if (latest) calls.push(() => s.call(a, "lomi_operation_cancel", { operationId: latest.operationId }).then((r) => observe(m, r)));
        if (latest) calls.push(() => s.call(a, "lomi_operation_get", { operationId: latest.operationId }).then((r) => observe(m, r)));
        const inFlight = calls.map((call) => scheduler.schedule(Promise.resolve()).then(call));
        await scheduler.waitAll();
        await Promise.all(inFlight);
      },
    ),
);

/**
 * Fields lomi_terminal_create does not declare: one it might have, and the prototype-named keys that
 * JSON parsers and schema libraries drop or reinterpret (SCH-06), sent as own keys on the wire.
 */
const UNDECLARED_FIELDS = [
  ["closeOthers", true],
  ["__proto__", { closeOthers: true }],
  ["constructor", "Object"],
] as const;

/** A call with a field its tool does not declare: it must be refused, never run without the field. */
const unknownField = fc.tuple(agent, fc.constantFrom(...UNDECLARED_FIELDS)).map(
  ([given, [field, value]]) =>
    new Step(`${given}: lomi_terminal_create with the undeclared field "${field}"`, always, async (m, s) => {
      const a = s.agentFor(given);
      const retryEpoch = await epochOf(m, s, a);
      if (!retryEpoch) return;
      const n = ++m.counter;
      // A computed key: `__proto__` becomes an own field, as JSON.parse makes it, not the object's prototype.
      observe(m, await s.call(a, "lomi_terminal_create", { ...terminalCreate(n, m.revision, retryEpoch), [field]: value }));
    }),
);

/** A second workspace of the world (fixtures/worlds/default.json) and one of its projects: its operations belong in its own feed only. */
const ELSEWHERE = { workspaceId: "ws-beta", projectId: "proj-api" } as const;

/** A terminal created in the other workspace, under an epoch of a connect to it (made each time: epochs are per workspace). */
const createElsewhere = agent.map(
  (given) =>
    new Step(`${given}: lomi_terminal_create in ${ELSEWHERE.workspaceId}`, always, async (m, s) => {
      const a = s.agentFor(given);
      const connected = await connect(s, a, ELSEWHERE.workspaceId);
      if (connected?.status !== "ok") return;
      const n = ++m.counter;
      const { retryEpoch, domainRevision } = connected.data;
      await submit(m, s, a, "lomi_terminal_create", terminalCreate(n, String(domainRevision), String(retryEpoch), ELSEWHERE));
    }),
);

/** A client the user does not know asks to pair and is denied; it must be told so, not asked to wait. */
const stranger = fc.constant(
  new Step(`${STRANGER} asks to pair and the user denies it`, always, async (_m, s) => {
    const first = await s.call(STRANGER, "lomi_connect", { workspaceId: WORKSPACE });
    if (first?.status === "error" && first.code === "PAIRING_REQUIRED") {
      await s.control.decide(STRANGER, "deny");
    }
    await s.call(STRANGER, "lomi_connect", { workspaceId: WORKSPACE });
  }),
);

const panels = agent.map(
  (given) =>
    new Step(`${given}: lomi_panel_list`, always, async (m, s) => {
      const a = s.agentFor(given);
      await epochOf(m, s, a);
      observe(m, await s.call(a, "lomi_panel_list", { workspaceId: WORKSPACE }));
    }),
);

const reconnect = agent.map(
  (a) =>
    new Step(`${a} reconnects`, always, async (m, s) => {
      await s.disconnect(a);
      forgetEpochs(m, s.adapter.capabilities.has("multi-connection") ? [a] : AGENTS);
      await epochOf(m, s, a);
    }),
);

/** Takes a terminal's lease over for an agent; answers the lease the model then holds, if granted. */
async function acquireLease(m: Model, s: ExploreSystem, a: AgentName, terminalSessionId: string): Promise<ModelLease | undefined> {
  await epochOf(m, s, a);
  const reply = await s.call(a, "lomi_lease_acquire", { workspaceId: WORKSPACE, runtime: { kind: "terminal", terminalSessionId } });
  if (reply?.status !== "ok") return undefined;
  const held: ModelLease = { agent: a, leaseId: String(reply.data.leaseId), terminalSessionId, sent: [] };
  m.leases.push(held);
  return held;
}

const lease = fc.tuple(agent, slot).map(([given, t]) =>
  stepOn(
    `${given}: lomi_lease_acquire on terminal #${t} (a takeover)`,
    (m) => m.terminals,
    t,
    async (terminal, m, s) => {
      await acquireLease(m, s, s.agentFor(given), terminal.terminalSessionId);
    },
  ),
);

const INPUT_MODES = ["next sequence", "repeat sequence", "changed sequence", "gap sequence", "next sequence twice at once"] as const;

/** Ordered input on a lease: text, or Ctrl+C (same lease, same sequence counter), as the model sent it. */
const sendInput = (s: ExploreSystem, held: ModelLease, sequence: number, input: SentInput) => {
  const args = { workspaceId: WORKSPACE, terminalSessionId: held.terminalSessionId, leaseId: held.leaseId, inputSequence: String(sequence) };
  return s.call(held.agent, input.tool, input.tool === "lomi_terminal_input" ? { ...args, text: input.text } : args);
};

const input = fc.tuple(slot, fc.constantFrom(...INPUT_MODES)).map(([l, mode]) =>
  stepOn(
    `input on lease #${l}: ${mode}`,
    (m) => m.leases,
    l,
    async (held, _m, s) => {
      const used = held.sent.length;
      const last = held.sent.at(-1);
      const [sequence, sent]: [number, SentInput] =
        mode === "repeat sequence" && last !== undefined
          ? [used, last]
          : mode === "changed sequence" && last !== undefined
            ? [used, { tool: "lomi_terminal_input", text: last.tool === "lomi_terminal_input" ? `${last.text}x` : "x\n" }]
            : mode === "gap sequence"
              ? [used + 2, { tool: "lomi_terminal_input", text: "gap\n" }]
              : [used + 1, { tool: "lomi_terminal_input", text: `echo ${used + 1}\n` }];
      // Identical inputs in flight together (a client retrying on a timeout): one is sent to Lomi, the other acknowledges it.
      const replies = await Promise.all(Array.from({ length: mode === "next sequence twice at once" ? 2 : 1 }, () => sendInput(s, held, sequence, sent)));
      if (sequence === used + 1 && replies.some((r) => r?.status === "ok" && r.data.acknowledged === "dispatched")) held.sent.push(sent);
    },
  ),
);

/** Runs the model last saw unsettled (or never saw a state of): the commands Ctrl+C may reach. */
const unsettledRuns = (m: Model) => m.operations.filter((o) => o.tool === "lomi_terminal_run" && !(o.state !== undefined && isSettled(o.state)));

/**
 * Ctrl+C to the terminal a run was sent to, under the latest lease on it (taken over when the model
 * holds none): a command that honours it settles its own operation failed, exit code 130 (INPUT-13),
 * one that ignores it keeps running (INPUT-12); nobody cancelled either.
 */
const interrupt = slot.map((o) =>
  stepOn(`Ctrl+C to the terminal of unsettled run #${o}`, unsettledRuns, o, async (op, m, s) => {
    const terminalSessionId = String(op.args.terminalSessionId);
    const held =
      m.leases.filter((l) => l.terminalSessionId === terminalSessionId).at(-1) ?? (await acquireLease(m, s, s.agentFor(op.agent), terminalSessionId));
    if (!held) return;
    const sent: SentInput = { tool: "lomi_terminal_interrupt" };
    const reply = await sendInput(s, held, held.sent.length + 1, sent);
    if (reply?.status === "ok" && reply.data.acknowledged === "dispatched") held.sent.push(sent);
  }),
);

// Faults ---------------------------------------------------------------------------------------------

const FAULT_TOOLS = ["lomi_terminal_create", "lomi_terminal_run", "lomi_settings_update", undefined] as const;
const arm = fc.tuple(fc.constantFrom("hold", "fail", "lose-reply"), fc.constantFrom(...FAULT_TOOLS)).map(
  ([action, tool]) =>
    new Step(`fault: ${action} the next dispatch of ${tool ?? "any tool"}`, always, async (_m, s) => {
      await s.control.armFault(action, tool);
    }),
);

const release = fc.tuple(slot, fc.constantFrom("complete", "fail", "honour-cancel")).map(
  ([o, outcome]) =>
    new Step(`fault: release unsettled dispatch #${o} (${outcome})`, always, async (_m, s) => {
      // Lomi's ledger names the dispatches it has not settled; a held one is among them.
      const ledger = await s.control.ledger();
      const settled = new Set(ledger.filter((e) => e.kind === "settle").map((e) => e.operationId));
      const operationId = pick(
        ledger.filter((e) => e.kind === "dispatch" && e.detail.permit !== undefined && !settled.has(e.operationId)).map((e) => e.operationId),
        o,
      );
      if (operationId) await tolerate(() => s.control.release(operationId, outcome));
    }),
);

const decide = fc.tuple(slot, fc.constantFrom("approve", "deny")).map(
  ([d, decision]) =>
    new Step(`the user ${decision === "approve" ? "approves" : "denies"} pending decision #${d}`, always, async (_m, s) => {
      const pending = pick(await s.control.decisions(), d);
      if (pending) await tolerate(() => s.control.decideOperation(pending.operationId, decision));
    }),
);

const crash = fc.constant(
  new Step("the broker crashes and restarts", always, async (m, s) => {
    await s.crash({ reason: "explore" });
    forgetEpochs(m);
  }),
);

const runtimeRestart = slot.map((t) =>
  stepOn(
    `terminal #${t}'s runtime restarts`,
    (m) => m.terminals,
    t,
    async (terminal, m, s) => {
      const restarted = await s.control.restartRuntime(terminal.panelId);
      if ("terminalSessionId" in restarted) m.terminals.push({ terminalSessionId: restarted.terminalSessionId, panelId: terminal.panelId });
    },
  ),
);

const layout = fc.constant(
  new Step("the user changes the layout", always, async (_m, s) => {
    await s.control.changeLayout(WORKSPACE);
  }),
);

const tick = fc.integer({ min: 100, max: 3000 }).map((ms) => new Step(`Lomi's clock moves ${ms} ms`, always, (_m, s) => s.advanceClock(ms)));
const jump = fc
  .integer({ min: 0, max: HOUR })
  .map((extra) => new Step(`Lomi's clock jumps ${24 * HOUR + extra} ms (past 24 hours)`, always, (_m, s) => s.advanceClock(24 * HOUR + extra)));

/** Every kind of step, weighted: agents' calls most often, faults often enough to meet them. */
export const STEP_ARBITRARIES: Array<fc.Arbitrary<fc.AsyncCommand<Model, ExploreSystem>>> = [
  create,
  create,
  createElsewhere,
  browserOpen,
  fileWrite,
  run,
  run,
  run,
  settings,
  retrySame,
  retrySame,
  retryChanged,
  get,
  get,
  get,
  lookup,
  cancel,
  events,
  events,
  panels,
  burst,
  unknownField,
  stranger,
  reconnect,
  lease,
  input,
  input,
  interrupt,
  arm,
  arm,
  release,
  release,
  release,
  decide,
  decide,
  crash,
  runtimeRestart,
  layout,
  tick,
  tick,
  tick,
  jump,
];
