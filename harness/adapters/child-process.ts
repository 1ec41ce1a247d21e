import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, watch } from "node:fs";
import os from "node:os";
import path from "node:path";
import { splitCommand } from "../text/command-line.js";
import { configError, notApplicable } from "../harness-error.js";
import { McpConnection } from "../connection/mcp-connection.js";
import { afterStart, type BrokerAdapter, type BrokerWiring, type StartKills } from "./broker-adapter.js";
import { type Capability } from "../run/capabilities.js";
import { USER_NODE_OPTIONS } from "../run/step-files.js";
import { killGroup, StdioProcessTransport } from "./stdio-process.js";
import { prepareSpares, takeSpare } from "./warm-spare.js";

/** A broker command line and the directory it runs in: the user's, in every process the harness starts (its workers run in the kit's folder). */
export interface BrokerCommand {
  line: string;
  cwd: string;
}

/** A stdio transport for the command, not started yet. */
export function commandTransport(command: BrokerCommand, environment: Record<string, string>): StdioProcessTransport {
  const { program, args } = programOf(command);
  return new StdioProcessTransport(program, args, environment, command.cwd);
}

/** A command line's program and its arguments; a line of no words names nothing to start (exit 2). */
function programOf(command: BrokerCommand): { program: string; args: string[] } {
  const [program, ...args] = splitCommand(command.line);
  if (program === undefined) throw configError(`the broker command "${command.line}" names no program to start`);
  return { program, args };
}

/**
 * When a broker process first writes in a directory (performance.now()), or undefined if it exits
 * or `limitMs` passes first. Set up before the process is launched, so no write goes unseen.
 */
function firstWrite(dir: string, transport: StdioProcessTransport, limitMs: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const done = (at: number | undefined) => {
      watcher.close();
      clearTimeout(timer);
      resolve(at);
    };
    const watcher = watch(dir, () => done(performance.now()));
    const timer = setTimeout(() => done(undefined), limitMs);
    timer.unref();
    transport.onclose = () => done(undefined);
  });
}

/**
 * npm as the broker command reaches it: offline, and never answering yes to an install. `npx
 * your-broker` then runs the broker installed in the user's repository, or fails saying it is not
 * installed; it never looks the name up on a registry and runs whatever package has that name.
 */
const NPM_NEVER_DOWNLOADS = { npm_config_offline: "true", npm_config_yes: "false" };

/** The environment contract: where the bridge is, which store to keep, the seed, the armed hooks. */
export function brokerEnvironment(w: Pick<BrokerWiring, "nativeUrl" | "storePath" | "seed" | "faults">, start: number): Record<string, string> {
  const userNodeOptions = process.env[USER_NODE_OPTIONS];
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (name !== USER_NODE_OPTIONS && value !== undefined) inherited[name] = value;
  return {
    ...inherited,
    ...(userNodeOptions === undefined ? {} : { NODE_OPTIONS: userNodeOptions }),
    ...NPM_NEVER_DOWNLOADS,
    LOMI_NATIVE_URL: w.nativeUrl,
    LOMI_STORE_PATH: w.storePath,
    LOMI_SEED: String(w.seed + start),
    LOMI_BROKER_FAULTS: (w.faults ?? []).join(","),
  };
}

/**
 * A broker started as a child process speaking MCP over stdio. A crash is a real SIGKILL of its
 * process group; a restart starts the same command on the same store file. One process serves one
 * connection. A scenario's first process was started while the scenarios before it ran (a warm
 * spare, on a store of its own): the broker's start-up is then off the scenario's path.
 */
export class ChildProcessAdapter implements BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly simulator = { kind: "fresh-port" } as const;
  private wiring: BrokerWiring | undefined;
  private transport: StdioProcessTransport | undefined;
  private connection: McpConnection | undefined;
  /** stderr of every process this scenario started, in order. */
  private readonly stderr: string[] = [];
  private starts = 0;
  /** A broker process started ahead for this scenario (a warm spare), until the first connect takes it. */
  private ready: StdioProcessTransport | undefined;
  /** The store directory that came with the spare: this adapter removes it. */
  private spareStoreDir: string | undefined;
  /** The scenario's own store path, which no process has touched while a spare stood in for it. */
  private ownStorePath: string | undefined;

  constructor(
    private readonly command: BrokerCommand,
    private readonly timeoutMs: number,
    supportsFaults: boolean,
    /** How many scenarios this process starts, when the run knows (it runs them one at a time): no spare is started past them. */
    private readonly scenarios?: number,
  ) {
    this.description = `broker command over stdio: ${command.line}`;
    this.capabilities = new Set<Capability>(["crash", "own-store", "kill-at-start", ...(supportsFaults ? (["faults"] as const) : [])]);
  }

  async start(wiring: BrokerWiring): Promise<void> {
    if (this.wiring) {
      // A new instance with other fault hooks armed. While the spare (started without these hooks)
      // was never connected, the store it was given is only half its own: killed now, it may be
      // killed while creating that store, so the armed instance takes the scenario's own, untouched
      // path. After a connect the scenario's store is the one the armed instance must reopen.
      this.wiring = { ...wiring, storePath: (await this.dropUnconnectedSpare()) ? wiring.storePath : this.wiring.storePath };
      return;
    }
    this.ownStorePath = wiring.storePath;
    const spare = await takeSpare(this.command.line, wiring.nativeUrl);
    this.wiring = spare ? { ...wiring, storePath: spare.storePath } : wiring;
    this.ready = spare?.transport;
    this.spareStoreDir = spare?.storeDir;
    if (spare) this.starts++;
    prepareSpares(this.command.line, wiring.seed, (w) => commandTransport(this.command, brokerEnvironment(w, 0)), this.scenarios);
  }

  /** Ends a spare no connect took (true), or does nothing (false). */
  private async dropUnconnectedSpare(): Promise<boolean> {
    const spare = this.ready;
    this.ready = undefined;
    await spare?.close();
    return spare !== undefined;
  }

  async killWhileStarting(moments: readonly number[]): Promise<StartKills> {
    if (this.transport) throw configError("a kill during the broker's first start must come before the scenario connects: it needs a new store");
    await this.dropUnconnectedSpare();
    const { startMs, storeMs } = await this.measureStart();
    const ownStorePath = afterStart(this.ownStorePath);
    this.wiring = { ...afterStart(this.wiring), storePath: ownStorePath };
    const dir = path.dirname(ownStorePath);
    const starts: StartKills["starts"] = [];
    for (const moment of moments) {
      const transport = commandTransport(this.command, this.environment());
      // A broker that writes nothing in the store's directory while it starts is killed just after it would answer.
      const wrote = firstWrite(dir, transport, 1.2 * startMs);
      await transport.launch();
      const writeAt = await wrote;
      await new Promise((resolve) => setTimeout(resolve, moment * storeMs));
      const exited = transport.endedByBroker;
      const killedAt = performance.now();
      await transport.close();
      this.stderr.push(transport.diagnostics());
      starts.push(
        exited
          ? { kind: "exited-itself" }
          : writeAt === undefined
            ? { kind: "killed-without-write" }
            : { kind: "killed", afterFirstWriteMs: killedAt - writeAt },
      );
    }
    return { storeMs, starts };
  }

  /**
   * How long this broker takes, on a store of its own, from its spawn to answering MCP initialize
   * (startMs), and from its first write in the store's directory to that answer (storeMs: the time
   * it makes its store in, which a slow disk's fsyncs lengthen; 0 if it writes nothing there before
   * it answers, and is then killed just after it would answer).
   */
  private async measureStart(): Promise<{ startMs: number; storeMs: number }> {
    const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-start-"));
    const transport = commandTransport(this.command, brokerEnvironment({ ...afterStart(this.wiring), storePath: path.join(dir, "receipts.sqlite") }, 0));
    let firstWriteAt: number | undefined;
    void firstWrite(dir, transport, this.timeoutMs).then((at) => (firstWriteAt = at));
    const began = performance.now();
    try {
      const connection = await McpConnection.open(transport, "start-timer", this.timeoutMs, () => transport.explain());
      const answered = performance.now();
      await connection.close();
      return { startMs: answered - began, storeMs: firstWriteAt === undefined ? 0 : answered - firstWriteAt };
    } finally {
      await transport.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private environment(): Record<string, string> {
    return brokerEnvironment(afterStart(this.wiring), this.starts++);
  }

  async connect(clientName: string): Promise<McpConnection> {
    if (this.connection) throw notApplicable("a stdio broker serves one MCP connection; this scenario needs a second one at the same time");
    // The scenario's first broker was started ahead, while the scenarios before it ran.
    const transport = this.ready ?? commandTransport(this.command, this.environment());
    this.ready = undefined;
    this.transport = transport;
    try {
      this.connection = await McpConnection.open(transport, clientName, this.timeoutMs, () => transport.explain());
    } catch (error) {
      await this.crash();
      throw error;
    }
    return this.connection;
  }

  async crash(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.connection = undefined;
    if (!transport) return;
    await transport.close();
    this.stderr.push(transport.diagnostics());
  }

  async restart(): Promise<void> {
    // The next connect starts a new process on the same store.
  }

  async stop(): Promise<void> {
    await this.crash();
    await this.ready?.close(); // a spare the scenario never connected to
    this.ready = undefined;
    if (this.spareStoreDir) rmSync(this.spareStoreDir, { recursive: true, force: true });
  }

  /** A second process on the same store must exit on its own, saying why; one still running after the timeout was not refused. */
  async probeSecondInstance(): Promise<{ refused: boolean; detail: string }> {
    const { program, args } = programOf(this.command);
    const child = spawn(program, args, { cwd: this.command.cwd, env: this.environment(), stdio: ["pipe", "ignore", "pipe"], detached: true });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), this.timeoutMs);
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code ?? -1);
      });
    });
    if (child.pid) killGroup(child.pid); // whatever it started goes with it
    if (exited === null) return { refused: false, detail: `still running after ${this.timeoutMs} ms on the same store` };
    return { refused: exited !== 0, detail: `exit ${exited}: ${stderr.trim().slice(-500)}` };
  }

  diagnostics(): string {
    const live = this.transport?.diagnostics();
    return [...this.stderr, ...(live ? [live] : [])].filter((s) => s !== "").join("\n--- restart ---\n");
  }
}
