// Broken agents: the reference agent (reference-agent.ts) with one part changed, each breaking the
// agent rules it declares and no other. They show the agent judgement has teeth: `npm test` holds
// each to failing exactly its rules (test/unit/agent-mutants.test.ts), as mutants/ does for brokers.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReferenceAgent, type AgentOptions, type Receipt, type Reply, type Terminal } from "./reference-agent.js";

export interface MutantAgent {
  /** Its name, and its clientInfo name in a history. */
  name: string;
  /** The agent rules it breaks (docs/spec.md, AGENT). */
  breaks: string[];
  /** What it does wrong, in one sentence. */
  defect: string;
  make(client: Client, options: AgentOptions): ReferenceAgent;
}

/** Takes the dev server's admission for its start, and runs the tests on the same terminal at once. */
class AdmissionTakenForSuccess extends ReferenceAgent {
  protected override async devServer(terminal: Terminal): Promise<void> {
    const server = this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run dev", "dev-server")));
    const tests = this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm test", "run-tests")));
    await this.interrupt(terminal);
    await this.settle(server);
    await this.settle(tests);
  }
}

/** Names its first workspace by the display name it was shown before using the ID. */
class DisplayNameTarget extends ReferenceAgent {
  private named = false;
  protected override async workspaceNamed(name: string): Promise<string> {
    const workspaceId = await super.workspaceNamed(name);
    if (!this.named) {
      this.named = true;
      await this.call("lomi_connect", { workspaceId: name });
    }
    return workspaceId;
  }
}

/** Adds a requestKey to its first layout refresh (an observation), then sends it without. */
class RequestKeyOnObservation extends ReferenceAgent {
  private added = false;
  protected override async layoutRevision(workspaceId: string): Promise<string> {
    if (!this.connections.get(workspaceId)!.revisionFresh && !this.added) {
      this.added = true;
      await this.call("lomi_panel_list", { workspaceId, requestKey: this.key("refresh") });
    }
    return super.layoutRevision(workspaceId);
  }
}

/** Leaves the permissions change at its admission: it never reads whether the user decided. */
class StopsReadingAtAdmission extends ReferenceAgent {
  protected override async allowNetwork(workspaceId: string): Promise<Receipt> {
    const { sections } = await this.observe("lomi_settings_read", { workspaceId });
    return this.admitted(await this.submit("lomi_settings_update", this.networkChange(workspaceId, sections.permissions.settingsRevision)));
  }
}

/** Creates its second terminal on the revision it had before its own first layout change. */
class StaleRevision extends ReferenceAgent {
  private stale = true;
  protected override async layoutRevision(workspaceId: string): Promise<string> {
    const connection = this.connections.get(workspaceId)!;
    if (!connection.revisionFresh && this.stale) {
      this.stale = false;
      return connection.revision;
    }
    return super.layoutRevision(workspaceId);
  }
}

/** Stops reading the events feed at its first empty page, and polls the operation instead. */
class StopsAtEmptyPage extends ReferenceAgent {
  protected override async followEvents(workspaceId: string, operationId: string): Promise<void> {
    for (;;) {
      const cursor = this.cursors.get(workspaceId);
      const page = await this.observe("lomi_events_read", { workspaceId, ...(cursor === undefined ? {} : { cursor }) });
      this.cursors.set(workspaceId, page.nextCursor);
      if (page.events.length === 0) break;
    }
    const read = await this.observe("lomi_operation_get", { operationId });
    await this.settle(read.operation);
  }
}

/** Takes outcome_unknown as the end of it: no look at the terminal, no second build. */
class IgnoresOutcomeUnknown extends ReferenceAgent {
  protected override async inspect(): Promise<void> {}
  protected override async buildAcrossRestart(terminal: Terminal): Promise<void> {
    await this.settle(this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run build", "build"))));
  }
}

/** Lets the tests' lost reply go: neither resent nor looked up, and never followed. */
class ForgetsLostRequest extends ReferenceAgent {
  protected override async runTests(terminal: Terminal): Promise<void> {
    const reply = await this.call("lomi_terminal_run", this.command(terminal, "npm test", "run-tests"));
    if (reply.kind === "ok") await this.followEvents(terminal.workspaceId, reply.data.operation.operationId);
  }
}

/** Looks a lost request up by key without its anchor projectId first, in a workspace of two projects. */
class LookupWithoutProject extends ReferenceAgent {
  private bare = true;
  protected override async recoverLost(tool: string, args: Record<string, unknown>): Promise<Reply> {
    if (this.bare && (this.connections.get(String(args.workspaceId))?.projects.length ?? 0) > 1) {
      this.bare = false;
      await this.call("lomi_operation_lookup", { retryEpoch: args.retryEpoch, requestKey: args.requestKey, tool });
    }
    return super.recoverLost(tool, args);
  }
}

/** Starts the dev server under the retry identity of its last admitted command first: a different operation under a used key. */
class ReusesKey extends ReferenceAgent {
  private last: Receipt | undefined;
  protected override async submit(tool: string, request: Record<string, unknown>) {
    const outcome = await super.submit(tool, request);
    if (outcome.kind === "admitted" && tool === "lomi_terminal_run") this.last = outcome.receipt;
    return outcome;
  }
  protected override async devServer(terminal: Terminal): Promise<void> {
    const used = this.last as (Receipt & { retryEpoch: string; requestKey: string }) | undefined;
    if (used)
      await this.submit("lomi_terminal_run", {
        ...this.command(terminal, "npm run dev", "dev-server"),
        retryEpoch: used.retryEpoch,
        requestKey: used.requestKey,
      });
    return super.devServer(terminal);
  }
}

/** Asks the user again under a new key after the denial. */
class NewKeyAfterDenial extends ReferenceAgent {
  protected override async allowNetwork(workspaceId: string): Promise<Receipt> {
    const denied = await super.allowNetwork(workspaceId);
    if (denied.state !== "failed") return denied;
    const { sections } = await this.observe("lomi_settings_read", { workspaceId });
    return this.settle(this.admitted(await this.submit("lomi_settings_update", this.networkChange(workspaceId, sections.permissions.settingsRevision))));
  }
}

/** After its first lost reply, sends the same request again under a new key instead of the original. */
class FreshKeyAfterLostReply extends ReferenceAgent {
  private first = true;
  protected override async recoverLost(tool: string, args: Record<string, unknown>): Promise<Reply> {
    if (!this.first) return super.recoverLost(tool, args);
    this.first = false;
    return this.call(tool, { ...args, requestKey: this.key("again") });
  }
}

/** Tries its refused retry epoch once more before connecting again. */
class KeepsRefusedEpoch extends ReferenceAgent {
  private retried = false;
  protected override async renewEpoch(workspaceId: string): Promise<string> {
    if (this.retried) return super.renewEpoch(workspaceId);
    this.retried = true;
    return this.epoch(workspaceId);
  }
}

/** Sends Ctrl+C to the dev server and takes it as stopped: it never reads the command's operation again. */
class WalksAwayAfterInterrupt extends ReferenceAgent {
  protected override async devServer(terminal: Terminal): Promise<void> {
    this.admitted(await this.submit("lomi_terminal_run", this.command(terminal, "npm run dev", "dev-server")));
    await this.interrupt(terminal);
  }
}

/** Reconnects when the store is full, hoping it clears, before reconciling. */
class ReconnectsWhenFull extends ReferenceAgent {
  private reconnected = false;
  protected override async onStoreFull(workspaceId: string): Promise<void> {
    if (this.reconnected) return super.onStoreFull(workspaceId);
    this.reconnected = true;
    await this.connect(workspaceId);
  }
}

const mutant = (name: string, breaks: string[], defect: string, Agent: new (client: Client, options: AgentOptions) => ReferenceAgent): MutantAgent => ({
  name,
  breaks,
  defect,
  make: (client, options) => new Agent(client, options),
});

/** One broken agent per agent rule at least; each breaks exactly the rules it names. */
export const MUTANT_AGENTS: readonly MutantAgent[] = [
  mutant(
    "admission-taken-for-success",
    ["AGENT-01"],
    "runs the tests on the dev server's terminal as soon as the server is admitted (isError: false read as started)",
    AdmissionTakenForSuccess,
  ),
  mutant("display-name-target", ["AGENT-02"], "connects to the workspace by its display name before its ID", DisplayNameTarget),
  mutant("request-key-on-observation", ["AGENT-03"], "adds a requestKey to lomi_panel_list", RequestKeyOnObservation),
  mutant("stops-reading-at-admission", ["AGENT-04"], "never reads the permissions change after its admission (awaiting_user)", StopsReadingAtAdmission),
  mutant("stale-revision", ["AGENT-05"], "creates its second terminal on the domainRevision it read before creating the first", StaleRevision),
  mutant("stops-at-empty-page", ["AGENT-06"], "stops following the events feed at its first empty page", StopsAtEmptyPage),
  mutant("ignores-outcome-unknown", ["AGENT-07"], "leaves an outcome_unknown build at that, never looking at the terminal", IgnoresOutcomeUnknown),
  mutant("forgets-lost-request", ["AGENT-08"], "neither resends nor looks up the tests whose reply was lost", ForgetsLostRequest),
  mutant("lookup-without-project", ["AGENT-09"], "looks a lost write up by key without its projectId in a workspace of two projects", LookupWithoutProject),
  mutant("reuses-key", ["AGENT-10"], "starts the dev server under the retry identity of its last build", ReusesKey),
  mutant("new-key-after-denial", ["AGENT-11"], "asks for the denied permissions change again under a new key", NewKeyAfterDenial),
  mutant("fresh-key-after-lost-reply", ["AGENT-08", "AGENT-11"], "sends the tests again under a new key after their reply was lost", FreshKeyAfterLostReply),
  mutant("keeps-refused-epoch", ["AGENT-12"], "submits again under the retry epoch the broker refused after its restart", KeepsRefusedEpoch),
  mutant("walks-away-after-interrupt", ["AGENT-13"], "takes Ctrl+C for the dev server's end and never reads its operation again", WalksAwayAfterInterrupt),
  mutant("reconnects-when-full", ["AGENT-14"], "calls lomi_connect when the store is full before reconciling it", ReconnectsWhenFull),
];
