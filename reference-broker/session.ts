import { contractOf, type CatalogueContract } from "../protocol/catalogue.js";
import { buildToolResult, errorOf, ok, type EnvelopeToolResult } from "../protocol/envelope.js";
import { asLomiError, LomiError } from "../protocol/errors.js";
import { outputSchemaOf, type InputOf, type OperationContract } from "../protocol/tool-contract.js";
import { chatRead } from "../protocol/tools/chat.js";
import { directoryList } from "../protocol/tools/directories.js";
import { editorDocuments } from "../protocol/tools/editor.js";
import { fileRead } from "../protocol/tools/files.js";
import { gitStatus } from "../protocol/tools/git.js";
import type { eventsRead, operationLookup } from "../protocol/tools/operation.js";
import { settingsRead } from "../protocol/tools/settings.js";
import type { BrokerCore } from "./broker.js";
import { CheckedReplies } from "./checked-replies.js";
import { BrokerCrashed } from "./fault-hooks.js";
import { handlerFor, handlerRegistry, WithImages, type HandlerRegistry } from "./handler.js";
import { excerpt, parseArguments } from "./input-validation.js";
import { panelObservationHandlers } from "./panel-observations.js";
import { publicEvent, publicReceipt } from "./public-receipt.js";
import { reconcileStore, storeStatus } from "./store-maintenance.js";
import { runtimeIoHandlers } from "./runtime-io-tools.js";
import type { StoredReceipt } from "./receipt-store.js";
import { RETRY_EPOCH_VALIDITY_MS } from "../protocol/tools/workspace.js";

/** One MCP connection to the broker: its pairing, its retry epochs, and the tools it can call. */
export class BrokerSession {
  readonly connectionId: string;
  private pairingId: string | undefined;
  private readonly handlers: HandlerRegistry;
  private readonly checked = new CheckedReplies();

  constructor(
    private readonly core: BrokerCore,
    private readonly clientName: () => string,
  ) {
    this.connectionId = core.random.id("conn-");
    this.handlers = handlerRegistry({
      lomi_workspace_list: async () => this.core.native.workspaces(await this.pairing()),
      lomi_connect: (a) => this.connect(a.workspaceId),
      lomi_panel_list: async (a) => this.core.native.panels(await this.pairing(), a.workspaceId),
      lomi_operation_get: async (a) => ({ operation: publicReceipt(await this.core.engine.refresh(await this.owned(a.operationId))) }),
      lomi_operation_lookup: (a) => this.lookup(a),
      lomi_operation_cancel: async (a) => {
        const { outcome, receipt } = await this.core.engine.cancel(await this.owned(a.operationId));
        return { outcome, operation: publicReceipt(receipt) };
      },
      lomi_events_read: (a) => this.events(a),
      lomi_store_status: async () => {
        await this.pairing();
        return storeStatus(this.core);
      },
      lomi_store_reconcile: async (a) => reconcileStore(this.core, await this.pairing(), a),
      lomi_settings_read: async (a) => this.core.native.observe(await this.pairing(), { kind: "settings", workspaceId: a.workspaceId }, settingsRead.data),
      lomi_chat_read: async (a) =>
        this.core.native.observe(await this.pairing(), { kind: "conversation", workspaceId: a.workspaceId, conversationId: a.conversationId }, chatRead.data),
      lomi_git_status: async (a) =>
        this.core.native.observe(await this.pairing(), { kind: "repository", workspaceId: a.workspaceId, projectId: a.projectId }, gitStatus.data),
      lomi_file_read: async (a) => this.core.native.observe(await this.pairing(), { kind: "file", ...a }, fileRead.data),
      lomi_directory_list: async (a) => this.core.native.observe(await this.pairing(), { kind: "directory", ...a }, directoryList.data),
      lomi_editor_documents: async (a) => this.core.native.observe(await this.pairing(), { kind: "documents", ...a }, editorDocuments.data),
      ...panelObservationHandlers(core, () => this.pairing()),
      ...runtimeIoHandlers(core, () => this.pairing()),
    });
  }

  /** The single entry point: validate, run, and answer with the envelope, typed errors included. */
  async call(name: string, rawArgs: unknown): Promise<EnvelopeToolResult> {
    try {
      const contract = contractOf(name);
      if (!contract) throw new LomiError("UNKNOWN_TOOL", `No tool named ${excerpt(name)}; tools/list shows the catalogue.`);
      const reply = await this.run(contract, rawArgs);
      const { data, images } = reply instanceof WithImages ? reply : { data: reply, images: [] };
      const envelope = ok(data);
      const text = JSON.stringify(envelope);
      if (!this.checked.has(name, text)) {
        // A receipt's result comes from Lomi typed only as a record: this check is what types it per tool.
        const checked = outputSchemaOf(contract).safeParse(envelope);
        if (!checked.success)
          throw new LomiError("INTERNAL", `The broker built a reply that breaks ${name}'s output schema: ${checked.error.issues[0]?.message}`);
        this.checked.add(name, text);
      }
      return buildToolResult(envelope, images, text);
    } catch (error) {
      if (error instanceof BrokerCrashed) throw error; // a dead broker answers nothing
      return buildToolResult(errorOf(asLomiError(error)));
    }
  }

  /** Parses the arguments with the contract's own input schema and runs the tool with them, typed by it (as the MCP SDK's registerTool does). */
  private async run(contract: CatalogueContract, rawArgs: unknown): Promise<unknown> {
    if (contract.kind === "operation") return this.admit(contract, parseArguments(contract.name, contract.input, rawArgs));
    const args = parseArguments(contract.name, contract.input, rawArgs);
    const handler = handlerFor(this.handlers, contract.name);
    if (!handler) throw new LomiError("INTERNAL", `No handler for ${contract.name}.`);
    return handler(args);
  }

  private async admit<C extends OperationContract>(contract: C, args: InputOf<C>) {
    const pairingId = await this.pairing();
    const { receipt, duplicate } = await this.core.engine.admit({ pairingId, connectionId: this.connectionId }, contract, args);
    return { operation: publicReceipt(receipt), duplicate };
  }

  /** The approved pairing of this connection, asking Lomi while it is not approved. */
  private async pairing(): Promise<string> {
    if (this.pairingId) return this.pairingId;
    const { pairingId, state } = await this.core.native.pairing(this.clientName(), this.core.instanceId);
    if (state === "denied") throw new LomiError("PAIRING_DENIED", "The user denied this session in Lomi Settings.");
    if (state === "pending") throw new LomiError("PAIRING_REQUIRED", "Approve the pending session in Lomi Settings.");
    this.pairingId = pairingId;
    return pairingId;
  }

  private async connect(workspaceId: string) {
    const pairingId = await this.pairing();
    const ws = await this.core.native.workspace(pairingId, workspaceId);
    const now = await this.core.native.now();
    const retryEpoch = this.core.random.id("epoch-");
    const expiresAt = now + RETRY_EPOCH_VALIDITY_MS;
    await this.core.epochs.add({
      retryEpoch,
      pairingId,
      brokerInstanceId: this.core.instanceId,
      connectionId: this.connectionId,
      workspaceId,
      projectIds: ws.projects.map((p) => p.projectId),
      issuedAt: now,
      expiresAt,
    });
    return {
      connectionId: this.connectionId,
      workspaceId,
      retryEpoch,
      retryEpochExpiresAt: new Date(expiresAt).toISOString(),
      projects: ws.projects,
      domainRevision: ws.domainRevision,
    };
  }

  /** Another pairing's receipt answers exactly as a receipt that does not exist. */
  private async owned(operationId: string): Promise<StoredReceipt> {
    const pairingId = await this.pairing();
    const receipt = this.core.store.byId(operationId);
    if (!receipt || receipt.pairingId !== pairingId) throw new LomiError("NOT_FOUND", `No operation ${operationId}.`, { field: "operationId" });
    return receipt;
  }

  private async lookup(a: InputOf<typeof operationLookup>) {
    const pairingId = await this.pairing();
    const notFound = new LomiError("NOT_FOUND", "No operation has that retry identity.", { field: "requestKey" });
    let key: string;
    try {
      key = this.core.engine.keyOf(pairingId, a.retryEpoch, a.tool, a.requestKey, a.projectId);
    } catch (error) {
      if (error instanceof LomiError && error.code === "RETRY_EPOCH_INVALID") throw notFound;
      throw error;
    }
    const receipt = this.core.store.byKey(key);
    if (!receipt) throw notFound;
    return { operation: publicReceipt(await this.core.engine.refresh(receipt)) };
  }

  private async events(a: InputOf<typeof eventsRead>) {
    const pairingId = await this.pairing();
    const { workspaceId } = a;
    await this.core.native.workspace(pairingId, workspaceId); // approved for this pairing, or a typed refusal
    await this.core.engine.refreshWorkspace(pairingId, workspaceId);
    const after = a.cursor === undefined ? 0 : Number(a.cursor);
    const limit = a.limit ?? this.core.policy.eventsPageSize;
    const page = this.core.store.events(pairingId, workspaceId, after, limit);
    const last = page.events.at(-1);
    return { events: page.events.map(publicEvent), nextCursor: String(last ? last.sequence : after), hasMore: page.hasMore };
  }
}
