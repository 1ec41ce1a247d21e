import { Then, When } from "@cucumber/cucumber";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { violation } from "../harness/harness-error.js";
import { toolSchemasFinding } from "../harness/contract-checks/published-tools.js";
import { expectSame } from "../harness/expected-found.js";
import { fillPlaceholders } from "./placeholders.js";
import type { LomiWorld } from "./world.js";
import { boundedJson, oneLine } from "../harness/text/bounded-json.js";
import { inputRules } from "../harness/oracles/finding-rules.js";

const INVALID_PARAMS = ErrorCode.InvalidParams;

When("{agent} calls {tool}", async function (this: LomiWorld, agent: string, tool: string) {
  await this.call(agent, tool, {});
});

When("{agent} calls {tool} with:", async function (this: LomiWorld, agent: string, tool: string, json: string) {
  await this.call(agent, tool, await fillPlaceholders(this, agent, json));
});

/** Arguments MCP's schema refuses (not a JSON object): the broker may answer a JSON-RPC error (SCH-06). */
When("{agent} calls {tool} with arguments that are not an object:", async function (this: LomiWorld, agent: string, tool: string, json: string) {
  await this.callAsMcpAllows(agent, tool, await fillPlaceholders(this, agent, json));
});

/** SCH-06 as decided (docs/decisions.md): the typed envelope, or the invalid-params error MCP's own schema allows. */
Then("the arguments are refused: the error INVALID_ARGUMENT, or MCP's invalid-params JSON-RPC error", function (this: LomiWorld) {
  const rpc = this.rpcError;
  if (!rpc) {
    this.expectError("INVALID_ARGUMENT");
    return;
  }
  this.rpcError = undefined;
  if (rpc.code !== INVALID_PARAMS)
    throw violation(
      `${rpc.tool} answered the JSON-RPC error ${rpc.code} ("${oneLine(rpc.message)}"); arguments that are not an object are refused with INVALID_ARGUMENT or the invalid-params error (${INVALID_PARAMS})`,
    );
});

When("{agent} sends {tool} as {string} with:", async function (this: LomiWorld, agent: string, tool: string, alias: string, json: string) {
  await this.send(alias, agent, tool, await fillPlaceholders(this, agent, json));
});

Then("the reply is ok", function (this: LomiWorld) {
  this.okData();
});

Then("the reply is the error {code}", function (this: LomiWorld, code: string) {
  this.expectError(code);
});

/** Where a rule allows several typed refusals (docs/decisions.md), any of them passes; nothing else does. */
Then("the reply is one of the errors {codes}", function (this: LomiWorld, codes: string[]) {
  this.expectError(codes);
});

/** A tool the catalogue lacks, on purpose: the one place a tool name is not checked against protocol/. */
When("{agent} calls the tool {string}, which the catalogue lacks", async function (this: LomiWorld, agent: string, tool: string) {
  await this.call(agent, tool, {});
});

Then("the error names the field {string}", function (this: LomiWorld, field: string) {
  const envelope = this.lastReply?.envelope;
  if (envelope?.status !== "error") throw violation("the last reply is not an error");
  if (envelope.details?.field !== field && !envelope.message.includes(field)) {
    const reply = this.lastReply!;
    throw violation(
      `the error does not name the field "${field}": "${oneLine(envelope.message)}", details ${boundedJson(envelope.details ?? {}, 300)}`,
      envelope.code === "INVALID_ARGUMENT" ? inputRules(reply.tool, reply.args) : [],
    );
  }
});

Then("the error message is {string}", function (this: LomiWorld, message: string) {
  const envelope = this.lastReply?.envelope;
  if (envelope?.status !== "error") throw violation("the last reply is not an error");
  expectSame("message", envelope.message, message);
});

Then("the reply lists workspace {string} as approved: {word}", function (this: LomiWorld, workspaceId: string, approved: string) {
  const { workspaces } = this.dataOf("lomi_workspace_list");
  const ws = workspaces.find((w) => w.workspaceId === workspaceId);
  if (!ws) throw violation(`lomi_workspace_list does not list ${workspaceId}`);
  expectSame(`approved (${workspaceId})`, String(ws.approved), approved);
});

Then("every tool in tools\\/list has an input schema that rejects unknown fields and an output schema", async function (this: LomiWorld) {
  const { tools } = await (await this.connection("agent")).listTools();
  const finding = toolSchemasFinding(tools);
  if (finding !== undefined) throw violation(finding, ["ENV-04"]);
});

Then("tools\\/list includes {string}", async function (this: LomiWorld, names: string) {
  const { tools } = await (await this.connection("agent")).listTools();
  const missing = names
    .split(",")
    .map((n) => n.trim())
    .filter((n) => !tools.some((t) => t.name === n));
  if (missing.length > 0) throw violation(`tools/list lacks ${missing.join(", ")}`);
});

Then("the error carries the operationId of {string}", function (this: LomiWorld, alias: string) {
  const envelope = this.lastReply?.envelope;
  if (envelope?.status !== "error") throw violation("the last reply is not an error");
  expectSame("details.operationId", envelope.details?.operationId, this.operationId(alias), {
    why: "the operation holding the key",
    seen: { label: "the error", value: envelope },
  });
});
