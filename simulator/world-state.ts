import path from "node:path";
import type { World } from "../protocol/control-api.js";
import { LomiError } from "../protocol/errors.js";
import type { Random } from "../protocol/ports.js";
import { ChatBook } from "./books/chat-book.js";
import { RepositoryBook } from "./books/repository-book.js";
import { SettingsBook } from "./books/settings-book.js";

import type { PanelView } from "../protocol/tools/workspace.js";
import { AndroidDevices } from "./android-devices.js";
import { LeaseBook, runtimeKey } from "./leases.js";
import { TerminalOutputs } from "./terminal-output.js";

/** A panel as Lomi holds it: the same shape the panel list shows. */
export type Panel = PanelView;
export type TerminalPanel = Extract<Panel, { kind: "terminal" }>;

export interface WorkspaceState {
  workspaceId: string;
  name: string;
  projects: Array<{ projectId: string; name: string }>;
  approvalByDefault: boolean;
  domainRevision: bigint;
  panels: Panel[];
  /** Set when lomi_workspace_close closed it: nothing more can be done in it. */
  closed?: boolean;
}

export interface Pairing {
  pairingId: string;
  clientName: string;
  state: "pending" | "approved" | "denied";
  workspaceIds: string[];
}

/** Workspaces, panels, runtimes, pairings and leases: the state native validators check against. */
export class WorldState {
  readonly workspaces = new Map<string, WorkspaceState>();
  readonly pairings = new Map<string, Pairing>();
  readonly leases: LeaseBook;
  readonly android: AndroidDevices;
  readonly terminalOutput = new TerminalOutputs();
  /** Terminal sessions that belonged to a panel before its runtime restarted. */
  readonly retiredSessions = new Set<string>();
  /** Lomi's settings, its Chat conversations and each project's Git repository. */
  readonly settings = new SettingsBook();
  readonly chats: ChatBook;
  readonly repositories: RepositoryBook;

  constructor(
    readonly seed: World,
    private readonly random: Random,
  ) {
    this.chats = new ChatBook(seed.conversations, random);
    this.repositories = new RepositoryBook(seed.repositories);
    this.leases = new LeaseBook(random);
    this.android = new AndroidDevices(random);
    for (const w of seed.workspaces) {
      this.workspaces.set(w.workspaceId, {
        workspaceId: w.workspaceId,
        name: w.name,
        projects: w.projects,
        approvalByDefault: w.approvalByDefault,
        domainRevision: BigInt(w.domainRevision),
        panels: w.android.map((device) => this.android.add(device)),
      });
    }
  }

  // Pairings ------------------------------------------------------------------------------------

  requestPairing(clientName: string): Pairing {
    const known = [...this.pairings.values()].find((p) => p.clientName === clientName);
    if (known) return known;
    const pairing: Pairing = { pairingId: this.random.id("pair-"), clientName, state: "pending", workspaceIds: [] };
    this.pairings.set(pairing.pairingId, pairing);
    if (this.seed.autoApprovePairings) this.decide(clientName, "approve");
    return pairing;
  }

  decide(clientName: string, decision: "approve" | "deny", workspaceIds?: string[]): Pairing {
    const pairing = [...this.pairings.values()].find((p) => p.clientName === clientName);
    if (!pairing) throw new LomiError("NOT_FOUND", `No pending pairing for client ${clientName}.`);
    for (const id of workspaceIds ?? []) this.workspace(id);
    pairing.state = decision === "approve" ? "approved" : "denied";
    pairing.workspaceIds =
      decision === "approve" ? (workspaceIds ?? [...this.workspaces.values()].filter((w) => w.approvalByDefault).map((w) => w.workspaceId)) : [];
    return pairing;
  }

  /** The approved pairing behind a bridge call, or the typed reason it is not. */
  approvedPairing(pairingId: string): Pairing {
    const pairing = this.pairings.get(pairingId);
    if (!pairing) throw new LomiError("PAIRING_REQUIRED", "Approve the pending session in Lomi Settings.");
    if (pairing.state === "denied") throw new LomiError("PAIRING_DENIED", "The user denied this session in Lomi Settings.");
    if (pairing.state === "pending") throw new LomiError("PAIRING_REQUIRED", "Approve the pending session in Lomi Settings.");
    return pairing;
  }

  // Workspaces and panels -------------------------------------------------------------------------

  workspace(workspaceId: string): WorkspaceState {
    const ws = this.workspaces.get(workspaceId);
    if (!ws) throw new LomiError("NOT_FOUND", `No workspace with ID ${workspaceId}; targets are IDs, never display names.`, { field: "workspaceId" });
    return ws;
  }

  approvedWorkspace(pairing: Pairing, workspaceId: string): WorkspaceState {
    const ws = this.workspace(workspaceId);
    if (!pairing.workspaceIds.includes(workspaceId)) {
      throw new LomiError("WORKSPACE_NOT_APPROVED", `Workspace ${workspaceId} is not approved for this session.`, { field: "workspaceId" });
    }
    return ws;
  }

  requireOpen(ws: WorkspaceState): void {
    if (ws.closed)
      throw new LomiError("NOT_FOUND", `Workspace ${ws.workspaceId} was closed in Lomi; nothing can be done in it until the user opens it again.`, {
        field: "workspaceId",
      });
  }

  project(ws: WorkspaceState, projectId: string): void {
    if (!ws.projects.some((p) => p.projectId === projectId)) {
      throw new LomiError("NOT_FOUND", `No project ${projectId} in workspace ${ws.workspaceId}.`, { field: "projectId" });
    }
  }

  requireRevision(ws: WorkspaceState, expected: string): void {
    if (BigInt(expected) !== ws.domainRevision) {
      throw new LomiError(
        "REVISION_CONFLICT",
        `expectedRevision ${expected} is stale; the current domainRevision is ${ws.domainRevision}. Refresh the workspace or panel list.`,
        {
          field: "expectedRevision",
          currentRevision: ws.domainRevision.toString(),
        },
      );
    }
  }

  /** A layout change: the decimal domainRevision grows by one. */
  bumpRevision(ws: WorkspaceState): string {
    ws.domainRevision += 1n;
    return ws.domainRevision.toString();
  }

  /** The panel whose current runtime is this terminal session; a retired session is stale, not unknown. */
  panelBySession(ws: WorkspaceState, terminalSessionId: string): TerminalPanel {
    const panel = ws.panels.find((p): p is TerminalPanel => p.kind === "terminal" && p.terminalSessionId === terminalSessionId);
    if (panel) return panel;
    if (this.retiredSessions.has(terminalSessionId)) {
      throw new LomiError(
        "STALE_RUNTIME",
        `Terminal session ${terminalSessionId} ended when its runtime restarted; read the panel list for the current terminalSessionId.`,
        {
          field: "terminalSessionId",
        },
      );
    }
    throw new LomiError("NOT_FOUND", `No terminal session ${terminalSessionId} in workspace ${ws.workspaceId}.`, { field: "terminalSessionId" });
  }

  panelById(panelId: string): { ws: WorkspaceState; panel: Panel } {
    for (const ws of this.workspaces.values()) {
      const panel = ws.panels.find((p) => p.panelId === panelId);
      if (panel) return { ws, panel };
    }
    throw new LomiError("NOT_FOUND", `No panel ${panelId}.`, { field: "panelId" });
  }

  /** Native validators are narrower than schemas: a project-relative path must stay inside the project. */
  static requireInsideProject(relative: string, field = "cwdRelative"): void {
    const normal = path.posix.normalize(relative === "" ? "." : relative);
    if (path.posix.isAbsolute(relative) || normal === ".." || normal.startsWith("../")) {
      throw new LomiError("OUTSIDE_PROJECT", `${field} ${JSON.stringify(relative)} leaves the project root.`, { field });
    }
  }

  addTerminalPanel(ws: WorkspaceState, pairing: Pairing, projectId: string, title: string, cwdRelative: string) {
    // The panel's ID is drawn first, then the session's: a seed names them as it always did.
    const panelId = this.random.id("panel-");
    const terminalSessionId = this.random.id("term-");
    const panel: TerminalPanel = { kind: "terminal", panelId, projectId, title, cwdRelative, terminalSessionId };
    ws.panels.push(panel);
    const lease = this.leases.grant(runtimeKey({ kind: "terminal", terminalSessionId }), pairing.pairingId);
    return { panel, lease, domainRevision: this.bumpRevision(ws) };
  }

  /** The panel lives on with a new runtime; the old runtime identity is stale and its leases expire. */
  restartRuntime(panelId: string): { terminalSessionId: string } | { generation: string } {
    const { panel } = this.panelById(panelId);
    if (panel.kind === "android") {
      const { oldGeneration, generation } = this.android.restart(panel);
      if (oldGeneration) this.leases.revokeRuntime(runtimeKey({ kind: "android", panelId, generation: oldGeneration }));
      return { generation };
    }
    if (panel.kind !== "terminal")
      throw new LomiError("INVALID_ARGUMENT", `Panel ${panelId} is a ${panel.kind} panel; its runtime cannot restart here.`, { field: "panelId" });
    const oldSessionId = panel.terminalSessionId;
    if (oldSessionId) {
      this.retiredSessions.add(oldSessionId);
      this.leases.revokeRuntime(runtimeKey({ kind: "terminal", terminalSessionId: oldSessionId }));
    }
    const terminalSessionId = this.random.id("term-");
    panel.terminalSessionId = terminalSessionId;
    return { terminalSessionId };
  }
}
