import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { readWorldFile } from "../../simulator/world-file.js";
import { brokerEnvironment, commandTransport, type BrokerCommand } from "../adapters/child-process.js";
import { splitCommand } from "../text/command-line.js";
import { configError } from "../harness-error.js";
import { McpConnection } from "../connection/mcp-connection.js";
import { serveSimulatorOn } from "../lomi/simulator-fixture.js";
import { messageOf } from "../../protocol/errors.js";

const PREFLIGHT_CLIENT = "lomi-conformance-preflight";
const SHOWN_LINES = 8;

/** The first and the last lines of what the broker wrote on stderr, or a word that it wrote nothing. */
export function stderrExcerpt(head: string, tail: string): string {
  const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");
  const indent = (ls: string[]) => ls.map((l) => `  ${l}`).join("\n");
  const all = lines(tail);
  if (all.length === 0 && lines(head).length === 0) return "The broker wrote nothing on stderr.";
  // The tail holds everything when the broker wrote little; otherwise the head is kept apart.
  if (all.length <= 2 * SHOWN_LINES && tail.startsWith(head.slice(0, 40))) return `stderr:\n${indent(all)}`;
  return `stderr begins:\n${indent(lines(head).slice(0, SHOWN_LINES))}\nstderr ends:\n${indent(all.slice(-SHOWN_LINES))}`;
}

/**
 * Before any scenario of a --broker-cmd run: start the command once against a simulated Lomi and
 * require MCP initialize and tools/list within the timeout. A command that is not found, exits,
 * writes garbage on stdout or stays silent ends the run (exit 2) with one message naming the cause,
 * instead of failing every scenario the same way.
 */
export async function preflightCommand(command: BrokerCommand, seed: number, timeoutMs: number): Promise<{ name: string; version: string } | undefined> {
  const server = await serveSimulatorOn(0, readWorldFile(), seed);
  const dir = mkdtempSync(path.join(os.tmpdir(), "lomi-preflight-"));
  const [cmd] = splitCommand(command.line);
  const transport = commandTransport(command, brokerEnvironment({ nativeUrl: server.url, storePath: path.join(dir, "receipts.sqlite"), seed }, 0));
  // The broker is stopped and its stderr read to the end first: a broker that wrote a banner on stdout
  // and then its error on stderr is told with that error, not as one that wrote nothing.
  const fail = async (cause: string) => {
    await transport.drain();
    return configError(`the broker command "${command.line}" ${cause}.\n${stderrExcerpt(transport.diagnosticsHead(), transport.diagnostics())}`);
  };
  /** How the broker ended, if it did, without the stderr tail `fail` adds in full. */
  const brokerEnding = () => (transport.endedByBroker ? transport.explain()?.replace(/; stderr ends:[\s\S]*$/, "") : undefined);
  let connection: McpConnection | undefined;
  try {
    try {
      connection = await McpConnection.open(transport, PREFLIGHT_CLIENT, timeoutMs);
    } catch (error) {
      if (transport.pid === undefined) {
        const code = /\b(ENOENT|EACCES)\b/.exec(messageOf(error))?.[1];
        throw await fail(
          code === "ENOENT"
            ? `was not found: no program "${cmd}" on PATH (it runs without a shell, from ${command.cwd})`
            : `cannot be started (${messageOf(error)})`,
        );
      }
      const ended = brokerEnding();
      throw await fail(
        ended !== undefined ? `did not complete MCP initialize: ${ended}` : `did not answer MCP initialize within ${timeoutMs} ms (--timeout-ms)`,
      );
    }
    try {
      await connection.listTools();
    } catch (error) {
      const ended = brokerEnding();
      throw await fail(
        ended !== undefined ? `answered initialize, then ${ended}` : `answered initialize but not tools/list within ${timeoutMs} ms (${messageOf(error)})`,
      );
    }
    return connection.serverInfo();
  } finally {
    await connection?.close();
    await transport.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
