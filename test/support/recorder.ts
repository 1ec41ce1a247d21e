import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The reference broker over stdio, its simulated Lomi embedded and its replies repeatable (seeded, virtual clock). */
export const SIMULATED_BROKER = ["bin/lomi-broker.js", "--simulate", "--approve-pairings", "--seed", "7", "--clock", "virtual"];

export interface Session {
  client: Client;
  transport: StdioClientTransport;
  /** What the process the client started wrote to stderr so far. */
  stderr: () => string;
}

/** An SDK client named `agent` connected to `command` (node and its arguments) over stdio. */
export async function stdioSession(agent: string, args: string[]): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" });
  let stderr = "";
  transport.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: agent, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/** The recorder's command line, writing `history`, in front of the broker `broker` (node and its arguments). */
export const recorderArgs = (history: string, broker: string[], own: string[] = []) => [
  "bin/lomi-conformance.js",
  "record",
  "--history",
  history,
  ...own,
  "--",
  process.execPath,
  ...broker,
];

/** `lomi-conformance check FILE [options]` as a user runs it. */
export function check(history: string, ...options: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ["bin/lomi-conformance.js", "check", history, ...options], { encoding: "utf8" });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The pids of a process's children (the recorder's broker). */
export function childrenOf(pid: number): number[] {
  const found = spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" });
  return found.stdout.split("\n").filter(Boolean).map(Number);
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits for a process not of ours to be gone, polling (it has no exit event to wait on). */
export async function gone(pid: number): Promise<void> {
  while (alive(pid)) await new Promise((r) => setTimeout(r, 20));
}

/** Starts a long-running node process and waits for the line its stderr (or stdout) announces a URL on. */
export async function startAnnouncing(
  args: string[],
  pattern: RegExp,
  stream: "stdout" | "stderr" = "stderr",
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", stream === "stdout" ? "pipe" : "ignore", "pipe"] });
  let seen = "";
  const url = await new Promise<string>((resolve, reject) => {
    child[stream]!.on("data", (c: Buffer) => {
      seen += c.toString();
      const found = pattern.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited ${code}: ${seen}`)));
  });
  return { child, url, stderr: () => seen };
}

export async function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(signal);
  await once(child, "exit");
}
