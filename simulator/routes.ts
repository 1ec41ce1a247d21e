// The simulated Lomi's native bridge and control API as plain routes: a method, a path and an answer
// to a JSON body. msw serves them over HTTP (handlers.ts); an in-process broker or harness calls them
// directly (in-process-route.ts), without the Request and Response objects msw would make per call.
import type { z } from "zod";
import {
  advanceClockRequest,
  CONTROL_PATHS,
  decideApprovalRequest,
  decideRequest,
  faultRequest,
  layoutChangeRequest,
  operationDecisionRequest,
  releaseRequest,
  resetRequest,
  restartRuntimeRequest,
  takeOverLeaseRequest,
} from "../protocol/control-api.js";
import { asLomiError, LomiError, type ErrorCode } from "../protocol/errors.js";
import { describeIssues, specificIssues } from "../protocol/schema-issues.js";
import { editorTypeRequest, otherProgramWriteRequest, protectFileRequest } from "../protocol/files-control.js";
import { isFileQuery } from "../protocol/files-bridge.js";
import {
  approvalRequest,
  checkRequest,
  clockRequest,
  dispatchRequest,
  inputRequest,
  leaseRequest,
  NATIVE_PATHS,
  observeRequest,
  operationRef,
  pairingRequest,
} from "../protocol/native-bridge.js";
import { observeBook } from "./book-observations.js";
import { contentBytes } from "./files/bytes.js";
import { observeFiles } from "./files/file-observations.js";
import { projectPath } from "./files/file-tree.js";
import type { SimulatorHost } from "./host.js";

const HTTP_STATUS: Partial<Record<ErrorCode, number>> = {
  INVALID_ARGUMENT: 400,
  PAIRING_REQUIRED: 403,
  PAIRING_DENIED: 403,
  WORKSPACE_NOT_APPROVED: 403,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  UNKNOWN_TOOL: 404,
  REPLAY_REFUSED: 409,
  REVISION_CONFLICT: 409,
  STALE_RUNTIME: 409,
  LEASE_REQUIRED: 403,
  LEASE_EXPIRED: 409,
  INTERNAL: 500,
};

/** Lomi answered nothing: the effect happened, the broker never hears so (a network failure to its caller). */
export const LOST_REPLY = Symbol("lost reply");

export type RouteReply = { status: number; body: unknown } | typeof LOST_REPLY;

export interface SimulatorRoute {
  method: "GET" | "POST";
  path: string;
  /** The reply to a request whose body is `text` (a GET has none). */
  reply(text: string | undefined): RouteReply;
}

/** A route's answer as the bridge's reply; LomiErrors become the bridge's error body. */
function replyOf(answer: () => unknown): RouteReply {
  try {
    const result = answer();
    return result === LOST_REPLY ? LOST_REPLY : { status: 200, body: result ?? {} };
  } catch (error) {
    const e = asLomiError(error);
    return { status: HTTP_STATUS[e.code] ?? 422, body: { error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } } };
  }
}

/** A JSON POST route: the body is parsed with its zod schema. */
function post<S extends z.ZodType>(path: string, schema: S, answer: (body: z.infer<S>) => unknown): SimulatorRoute {
  return {
    method: "POST",
    path,
    reply: (text) =>
      replyOf(() => {
        let raw: unknown;
        try {
          raw = JSON.parse(text ?? "");
        } catch {
          throw new LomiError("INVALID_ARGUMENT", "The body is not JSON.");
        }
        const parsed = schema.safeParse(raw);
        if (!parsed.success) {
          // The field by its path, down through unions (a runtime of either kind, a permit): a broker learns what to fix.
          const [first] = specificIssues(parsed.error.issues);
          throw new LomiError(
            "INVALID_ARGUMENT",
            `Bad request to ${path} ${describeIssues(parsed.error)} (docs/native-bridge.json has every request's schema)`,
            { field: first?.path ?? "(root)" },
          );
        }
        return answer(parsed.data);
      }),
  };
}

function get(path: string, answer: () => unknown): SimulatorRoute {
  return { method: "GET", path, reply: () => replyOf(answer) };
}

/** The native bridge a broker calls. */
function bridgeRoutes(host: SimulatorHost): SimulatorRoute[] {
  const sim = () => host.current;
  return [
    post(NATIVE_PATHS.clock, clockRequest, () => ({ now: sim().now() })),
    post(NATIVE_PATHS.pairing, pairingRequest, (b) => sim().pairing(b.clientName, b.brokerInstanceId)),
    post(NATIVE_PATHS.observe, observeRequest, ({ pairingId, query }) => {
      if (query.kind === "workspaces") return sim().observeWorkspaces(pairingId);
      if (query.kind === "workspace") return sim().observeWorkspace(pairingId, query.workspaceId);
      if (query.kind === "panels") return sim().observePanels(pairingId, query.workspaceId);
      if (query.kind === "browser-snapshot") return sim().observeBrowserSnapshot(pairingId, query);
      if (query.kind === "capture") return sim().observeCapture(pairingId, query);
      if (query.kind === "terminal-output") return sim().observeTerminalOutput(pairingId, query);
      if (isFileQuery(query)) return observeFiles(sim(), pairingId, query);
      return observeBook(sim(), pairingId, query);
    }),
    post(NATIVE_PATHS.check, checkRequest, ({ withNow, ...b }) => {
      sim().check(b);
      return withNow ? { ok: true, now: sim().now() } : { ok: true };
    }),
    post(NATIVE_PATHS.dispatch, dispatchRequest, (b) => {
      const { progress, loseReply } = sim().dispatch(b);
      // The effect happened; the broker never hears so.
      return loseReply ? LOST_REPLY : progress;
    }),
    post(NATIVE_PATHS.status, operationRef, (b) => sim().status(b.operationId)),
    post(NATIVE_PATHS.cancel, operationRef, (b) => sim().cancel(b.operationId)),
    post(NATIVE_PATHS.approval, approvalRequest, (b) => sim().askApproval(b.pairingId, b.subject, b.detail)),
    post(NATIVE_PATHS.lease, leaseRequest, (b) => sim().acquireLease(b.pairingId, b.workspaceId, b.runtime)),
    post(NATIVE_PATHS.input, inputRequest, (b) => {
      const { dispatchId, loseReply } = sim().input(b);
      return loseReply ? LOST_REPLY : { dispatchId };
    }),
  ];
}

/** The control API a harness calls: seed, play the user, inject faults, read the ground truth. */
function controlRoutes(host: SimulatorHost): SimulatorRoute[] {
  const sim = () => host.current;
  return [
    post(CONTROL_PATHS.reset, resetRequest, (b) => {
      host.reset(b.world, b.seed);
      return {};
    }),
    get(CONTROL_PATHS.snapshot, () => sim().snapshot()),
    get(CONTROL_PATHS.ledger, () => ({ entries: sim().ledgerEntries() })),
    get(CONTROL_PATHS.pairings, () => ({ pairings: [...sim().world.pairings.values()] })),
    post(CONTROL_PATHS.decide, decideRequest, (b) => sim().decide(b.clientName, b.decision, b.workspaceIds)),
    post(CONTROL_PATHS.faults, faultRequest, (b) => ({ faultId: sim().armFault(b.action, b.tool) })),
    post(CONTROL_PATHS.release, releaseRequest, (b) => sim().release(b.operationId, b.outcome)),
    post(CONTROL_PATHS.advanceClock, advanceClockRequest, (b) => {
      sim().advanceClock(b.ms);
      return { now: sim().now() };
    }),
    post(CONTROL_PATHS.layoutChange, layoutChangeRequest, (b) => ({ domainRevision: sim().changeLayout(b.workspaceId) })),
    post(CONTROL_PATHS.restartRuntime, restartRuntimeRequest, (b) => sim().restartRuntime(b.panelId)),
    post(CONTROL_PATHS.takeOverLease, takeOverLeaseRequest, (b) => sim().takeOverLease(b.clientName, b.runtime)),
    get(CONTROL_PATHS.approvals, () => ({ approvals: sim().approvals.all() })),
    post(CONTROL_PATHS.decideApproval, decideApprovalRequest, (b) => sim().approvals.decide(b.approvalId, b.decision)),
    get(CONTROL_PATHS.decisions, () => ({ decisions: sim().pendingDecisions() })),
    post(CONTROL_PATHS.decideOperation, operationDecisionRequest, (b) => sim().decideOperation(b.operationId, b.decision)),
    get(CONTROL_PATHS.files, () => sim().files.snapshot()),
    post(CONTROL_PATHS.otherProgramWrite, otherProgramWriteRequest, (b) =>
      sim().files.writeFile(b.projectId, projectPath(b.path, "path"), contentBytes(b.content), "path"),
    ),
    post(CONTROL_PATHS.protectFile, protectFileRequest, (b) => sim().files.tree(b.projectId).protect(projectPath(b.path, "path"))),
    post(CONTROL_PATHS.editorType, editorTypeRequest, (b) => sim().files.view(sim().files.userTypes(b.projectId, projectPath(b.path, "path"), b.text))),
  ];
}

/** The routes of one simulated Lomi by method and path, as HTTP and in-process requests both reach them. */
export class RouteTable {
  private readonly routes: Map<string, SimulatorRoute>;

  constructor(
    private readonly host: SimulatorHost,
    routes: SimulatorRoute[],
  ) {
    this.routes = new Map(routes.map((r) => [`${r.method} ${r.path}`, r]));
  }

  /**
   * The reply to a request, after Lomi's in-flight native work (a page load), so that nothing a caller
   * reads depends on the machine's speed; undefined when no route takes it. The route's path ends the
   * URL's path: a proxy in front of the bridge may prefix it.
   */
  async answer(method: string, urlPath: string, body: () => Promise<string | undefined>): Promise<RouteReply | undefined> {
    const route = this.routes.get(`${method} ${ROUTE_PATH.exec(urlPath)?.[0]}`);
    if (!route) return undefined;
    await this.host.current.idle();
    return route.reply(await body());
  }
}

const ROUTE_PATH = /\/(native|control)\/v1\/[^?#]*$/;

/** The whole simulated Lomi: its native bridge and its control API. */
export function simulatorRoutes(host: SimulatorHost): RouteTable {
  return new RouteTable(host, [...bridgeRoutes(host), ...controlRoutes(host)]);
}

/** The control API alone, for a simulated Lomi whose bridge only its own process uses (lomi-broker --simulate). */
export function controlApiRoutes(host: SimulatorHost): RouteTable {
  return new RouteTable(host, controlRoutes(host));
}
