import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { killGroup } from "../adapters/stdio-process.js";
import { configError } from "../harness-error.js";
import type { SimControl } from "../lomi/sim-control.js";
import { FaultLink } from "./fault-link.js";
import type { FaultPlan } from "./fault-plan.js";
import { jsonLines, jsonOf, lineReader } from "./lines.js";
import { startRecording, type RecordingOptions } from "./recording.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

export interface StdioRecordOptions extends RecordingOptions {
  command: string;
  args: string[];
  /** record --faults: what to inject, and the simulated Lomi's control API a hold needs. */
  faults?: { plan: FaultPlan; lomi: SimControl | undefined };
}

type Broker = ChildProcessByStdio<Writable, Readable, null>;

/**
 * `record --history FILE -- CMD ARGS…`: an MCP stdio server standing in for CMD. CMD runs as its
 * child; every byte the client writes goes to CMD's stdin and every byte CMD writes to stdout comes
 * back, as they arrive and untouched (the recorder reads a copy); CMD's stderr is ours. Answers
 * CMD's exit code. CMD ending while the client is still there is a broker crash: it is recorded,
 * and the recorder ends too, so the client sees its server gone and may start it again (a new
 * connection, appended to the same history). With --faults, messages pass line by line through the
 * fault link (fault-link.ts) instead, re-serialized, and a restart it injects starts CMD again.
 */
export function recordStdio(o: StdioRecordOptions): Promise<number> {
  const label = `stdio-${o.history.run}`;
  const { recorder, live } = startRecording(o, label);
  const tap = recorder.connection(label);
  // With faults the broker is a process group of its own, so a restart kills all of it (a wrapper such as npx and the broker under it) and frees its store.
  const start = (): Broker => {
    const child = spawn(o.command, o.args, { stdio: ["pipe", "pipe", "inherit"], detached: o.faults !== undefined });
    // A client that goes away mid-write, or a broker that died, is not the recorder's failure.
    child.stdin.on("error", () => undefined);
    return child;
  };
  let child = start();
  let restarting = false;
  process.stdout.on("error", () => undefined);
  // The recorder ending for any reason (a signal included) ends its broker.
  const stopChild = () => (o.faults && child.pid !== undefined ? killGroup(child.pid) : child.kill());
  process.once("exit", stopChild);
  let clientGone = false;
  process.stdin.once("end", () => (clientGone = true));

  return new Promise((resolve, reject) => {
    const watch = (broker: Broker) => {
      broker.once("error", (error) => {
        process.off("exit", stopChild);
        reject(configError(`cannot start the broker ${o.command} (${systemCodeOf(error) ?? messageOf(error)})`));
      });
      // 'close': the broker's stdout is read to its end, so every reply it sent is recorded first.
      broker.once("close", (code, signal) => {
        if (broker !== child || restarting) return;
        process.off("exit", stopChild);
        if (clientGone) tap.end("the client closed the connection");
        else tap.crashed({ exitCode: code, signal });
        o.history.close();
        process.stdin.unpipe(broker.stdin);
        process.stdin.pause();
        // The last calls' findings are printed before the recorder ends.
        void (live?.close() ?? Promise.resolve()).then(() => resolve(code ?? 1));
      });
    };
    watch(child);
    if (!o.faults) {
      process.stdin.pipe(child.stdin);
      process.stdin.on(
        "data",
        jsonLines((m) => tap.fromClient(m)),
      );
      child.stdout.pipe(process.stdout);
      child.stdout.on(
        "data",
        jsonLines((m) => tap.fromServer(m)),
      );
      return;
    }
    const line = (value: unknown) => `${JSON.stringify(value)}\n`;
    const link = new FaultLink({
      plan: o.faults.plan,
      recorder,
      tap,
      lomi: o.faults.lomi,
      toClient: (m) => void process.stdout.write(line(m)),
      broker: {
        send: (m) => void child.stdin.write(line(m)),
        restart: async () => {
          restarting = true;
          const old = child;
          const closed = new Promise((r) => old.once("close", r));
          if (old.pid !== undefined) killGroup(old.pid);
          await closed;
          child = start();
          restarting = false;
          watch(child);
          fromBroker(child);
        },
      },
      warn: o.print,
    });
    // A line that is not JSON goes on as it came: the other side answers it as it would without the recorder.
    const lines = (json: (value: unknown) => void, other: (text: string) => void) =>
      lineReader((text) => {
        const value = jsonOf(text);
        if (value === undefined) other(`${text}\n`);
        else json(value);
      });
    const fromBroker = (broker: Broker) =>
      broker.stdout.on(
        "data",
        lines(
          (m) => link.fromServer(m),
          (t) => void process.stdout.write(t),
        ),
      );
    fromBroker(child);
    process.stdin.on(
      "data",
      lines(
        (m) => link.fromClient(m),
        (t) => void child.stdin.write(t),
      ),
    );
    process.stdin.once("end", () => void link.settled().then(() => child.stdin.end()));
  });
}
