import { spawn } from "node:child_process";
import { configError } from "../harness-error.js";
import { jsonLines } from "./lines.js";
import { startRecording, type RecordingOptions } from "./recording.js";
import { messageOf, systemCodeOf } from "../../protocol/errors.js";

export interface StdioRecordOptions extends RecordingOptions {
  command: string;
  args: string[];
}

/**
 * `record --history FILE -- CMD ARGS…`: an MCP stdio server standing in for CMD. CMD runs as its
 * child; every byte the client writes goes to CMD's stdin and every byte CMD writes to stdout comes
 * back, as they arrive and untouched (the recorder reads a copy); CMD's stderr is ours. Answers
 * CMD's exit code. CMD ending while the client is still there is a broker crash: it is recorded,
 * and the recorder ends too, so the client sees its server gone and may start it again (a new
 * connection, appended to the same history).
 */
export function recordStdio(o: StdioRecordOptions): Promise<number> {
  const label = `stdio-${o.history.run}`;
  const { recorder, live } = startRecording(o, label);
  const tap = recorder.connection(label);
  const child = spawn(o.command, o.args, { stdio: ["pipe", "pipe", "inherit"] });
  // A client that goes away mid-write, or a broker that died, is not the recorder's failure.
  child.stdin.on("error", () => undefined);
  process.stdout.on("error", () => undefined);
  // The recorder ending for any reason (a signal included) ends its broker.
  const stopChild = () => child.kill();
  process.once("exit", stopChild);

  let clientGone = false;
  process.stdin.pipe(child.stdin);
  process.stdin.on("data", jsonLines((m) => tap.fromClient(m)));
  process.stdin.once("end", () => (clientGone = true));
  child.stdout.pipe(process.stdout);
  child.stdout.on("data", jsonLines((m) => tap.fromServer(m)));

  return new Promise((resolve, reject) => {
    child.once("error", (error) => {
      process.off("exit", stopChild);
      reject(configError(`cannot start the broker ${o.command} (${systemCodeOf(error) ?? messageOf(error)})`));
    });
    // 'close': the broker's stdout is read to its end, so every reply it sent is recorded first.
    child.once("close", (code, signal) => {
      process.off("exit", stopChild);
      if (clientGone) tap.end("the client closed the connection");
      else tap.crashed({ exitCode: code, signal });
      o.history.close();
      process.stdin.unpipe(child.stdin);
      process.stdin.pause();
      // The last calls' findings are printed before the recorder ends.
      void (live?.close() ?? Promise.resolve()).then(() => resolve(code ?? 1));
    });
  });
}
