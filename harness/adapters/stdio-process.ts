import { spawn, type ChildProcess } from "node:child_process";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

const MAX_DIAGNOSTICS = 20_000;
/** How much of the start of stderr is kept apart: a crash's first line says most. */
const HEAD_CHARS = 1_500;
/** How much of a stdout line that is not JSON-RPC the cause quotes: a banner or log line whole, a dump's start. */
const QUOTED_CHARS = 500;
/** How long, after the broker's group is killed, its stderr may take to reach us before the cause is told without the rest. */
const DRAIN_MS = 2_000;
/**
 * How long a broker that wrote a line that is not JSON-RPC lives on before it is killed: one that
 * prints a banner goes on to say on stderr what it does or what went wrong, and that is what its
 * team needs to read next to the banner.
 */
const GARBAGE_GRACE_MS = 1_000;

/** A line the broker wrote, quoted as it was (JSON string escapes show control characters), cut at QUOTED_CHARS. */
function quotedLine(line: string): string {
  return line.length <= QUOTED_CHARS ? JSON.stringify(line) : `${JSON.stringify(line.slice(0, QUOTED_CHARS))}… (${line.length} characters in all)`;
}

/** Process groups this harness started and has not seen end: killed if the harness itself exits. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

/** SIGKILL to a process group (a broker and everything it started). */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // the group is gone already
  }
}

function trackGroup(pgid: number): void {
  liveGroups.add(pgid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const g of liveGroups) killGroup(g);
  });
}

/**
 * An MCP client transport over a broker process's stdio, like the SDK's StdioClientTransport but
 * with what a conformance harness needs: the broker runs in its own process group, so a crash or a
 * stop kills the broker and anything it started (`npx` spawns a child; killing npx alone orphans it);
 * a line on stdout that is not JSON-RPC ends the connection at once with the line quoted, rather
 * than leaving the call to time out; and why the connection ended is kept for the failure report.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  /** stdout not yet split into lines: the SDK's ReadBuffer drops a line it cannot parse, and the cause must quote it. */
  private pending = Buffer.alloc(0);
  private exited: Promise<void> | undefined;
  private closed: Promise<void> | undefined;
  private stderr = "";
  private stderrHead = "";
  private killedByHarness = false;
  private ending: string | undefined;

  constructor(
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string>,
    private readonly cwd: string,
  ) {}

  private launched: Promise<void> | undefined;

  /** Starts the broker process; MCP begins when the client connects. A warm spare is launched long before that. */
  launch(): Promise<void> {
    return (this.launched ??= this.spawnBroker());
  }

  async start(): Promise<void> {
    await this.launch();
  }

  private async spawnBroker(): Promise<void> {
    const child = spawn(this.command, this.args, { cwd: this.cwd, env: this.env, stdio: "pipe", detached: true });
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    this.closed = new Promise((resolve) => child.once("close", () => resolve()));
    child.stderr.on("data", (chunk: Buffer) => {
      if (this.stderrHead.length < HEAD_CHARS) this.stderrHead = (this.stderrHead + chunk.toString()).slice(0, HEAD_CHARS);
      this.stderr = (this.stderr + chunk.toString()).slice(-MAX_DIAGNOSTICS);
    });
    child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
    child.stdin.on("error", () => undefined); // a broker that died: reported by "exit"
    child.once("exit", (code, signal) => {
      this.ending ??= `the broker process exited (${signal ? `signal ${signal}` : `code ${code}`})`;
    });
    child.once("close", () => {
      if (child.pid) liveGroups.delete(child.pid);
      this.onclose?.();
    });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", resolve);
      child.once("error", (error) => reject(new Error(`cannot start the broker command ${this.command}: ${error.message}`)));
    });
    // A process that spawned has a pid.
    if (child.pid !== undefined) trackGroup(child.pid);
  }

  private read(chunk: Buffer): void {
    // Once the transport has ended, later output (a garbage line arriving before the kill lands) must not replace the first cause.
    if (this.ending !== undefined) return;
    this.pending = Buffer.concat([this.pending, chunk]);
    for (let end = this.pending.indexOf(0x0a); end !== -1; end = this.pending.indexOf(0x0a)) {
      const line = this.pending.toString("utf8", 0, end).replace(/\r$/, "");
      this.pending = this.pending.subarray(end + 1);
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        const what = error instanceof SyntaxError ? "not JSON" : "JSON, but not a JSON-RPC message";
        this.ending = `the broker wrote a line on stdout that is not a JSON-RPC message: ${quotedLine(line)} (${what}); in stdio mode stdout must carry only MCP`;
        this.onerror?.(new Error(this.ending));
        setTimeout(() => this.kill(), GARBAGE_GRACE_MS);
        return;
      }
      this.onmessage?.(message);
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) throw new Error(this.ending ?? "the broker process is not running");
    if (!stdin.write(serializeMessage(message))) await new Promise((resolve) => stdin.once("drain", resolve));
  }

  /** SIGKILL to the whole process group: no shutdown code runs anywhere in it. */
  kill(): void {
    if (this.ending === undefined) this.killedByHarness = true;
    this.ending ??= "the harness killed the broker process";
    if (this.child?.pid) killGroup(this.child.pid);
  }

  /** Kills the group and waits until the broker process is gone (its store is free again). */
  async close(): Promise<void> {
    this.kill();
    if (this.child?.pid === undefined) return; // never started: no exit will come
    await this.exited;
  }

  /**
   * Kills the group and waits until its stderr has been read to the end (or DRAIN_MS passed: a
   * process that left the group may hold the pipe open), so what the kit says the broker wrote there
   * is all it wrote before it was stopped.
   */
  async drain(): Promise<void> {
    await this.close();
    if (this.closed === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closed, new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)))]);
    clearTimeout(timer);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Why the connection ended, if it did, with the tail of stderr. */
  explain(): string | undefined {
    return this.ending && `${this.ending}${this.stderr ? `; stderr ends: ${this.stderr.slice(-600)}` : ""}`;
  }

  diagnostics(): string {
    return this.stderr;
  }

  /** The first lines the broker wrote on stderr, kept however much it wrote after them. */
  diagnosticsHead(): string {
    return this.stderrHead;
  }

  /** Whether the broker ended the connection itself (it exited, or wrote garbage on stdout), not the harness. */
  get endedByBroker(): boolean {
    return this.ending !== undefined && !this.killedByHarness;
  }
}
