import type { WorldSeed } from "../../protocol/control-api.js";
import { isOneOf } from "../../protocol/closed-lists.js";
import type { BrokerAdapter } from "../adapters/broker-adapter.js";
import { Driver } from "../driver/driver.js";
import { looseEnvelope, type RecordedEnvelope } from "../history/replies.js";
import type { RunParameters } from "../run/run-parameters.js";

/** The agents of an explore run, each its own pairing. */
export const AGENTS = ["agent-a", "agent-b"] as const;
export type AgentName = (typeof AGENTS)[number];

/** A reply as explore's model reads it: the one reading of a recorded reply (harness/history/replies.ts). */
export type Envelope = NonNullable<RecordedEnvelope>;

/**
 * One explore run's system under test: the driver (which starts, drives and records the broker,
 * as it does for every scenario) and explore's own policy on top of it: one connection per agent,
 * and for a broker that serves one connection at a time, a restart to switch agents.
 */
export class ExploreSystem {
  /** The labels of the steps this run executed, in order. */
  readonly steps: string[] = [];

  private constructor(readonly driver: Driver) {}

  /** `adapter` makes the broker under test; by default the one the run parameters name. */
  static async start(run: RunParameters, world: WorldSeed, seed: number, source: string, adapter?: BrokerAdapter): Promise<ExploreSystem> {
    return new ExploreSystem(await Driver.start({ run, world, seed, source, adapter }));
  }

  get adapter(): BrokerAdapter {
    return this.driver.adapter;
  }

  get control() {
    return this.driver.control;
  }

  /**
   * Who takes an agent's step. A broker that serves one connection at a time is restarted to switch
   * agents, so there the agent already connected takes it; reads by the other pairing, the stranger
   * and reconnects still switch.
   */
  agentFor<A extends string>(agent: A): A {
    if (this.adapter.capabilities.has("multi-connection")) return agent;
    const open = this.driver.connectionNames()[0] as A | undefined;
    return open !== undefined && isOneOf(AGENTS, open) ? open : agent;
  }

  /** Whether the agent has a live connection (its retry epochs belong to it). */
  connected(agent: string): boolean {
    return this.driver.hasConnection(agent);
  }

  /** Calls a tool as an agent (recorded by the driver); answers the envelope, or undefined when no reply came or none reads as one. */
  async call(agent: string, tool: string, args: Record<string, unknown>): Promise<Envelope | undefined> {
    const others = this.driver.connectionNames().filter((n) => n !== agent);
    if (!this.driver.hasConnection(agent) && !this.adapter.capabilities.has("multi-connection") && others.length > 0) {
      await this.crash({ reason: `a new connection for ${agent}: this broker serves one connection at a time` });
    }
    // Replies are judged by the oracles, not here: a reply that breaks the envelope rules is recorded as it came.
    const answer = await this.driver.call(agent, tool, args);
    return "reply" in answer ? looseEnvelope(answer.reply.structuredContent) : undefined;
  }

  /** Ends an agent's connection (a client reconnecting); for a process broker that is a new process. */
  async disconnect(agent: string): Promise<void> {
    if (!this.driver.hasConnection(agent)) return;
    if (!this.adapter.capabilities.has("multi-connection")) return this.crash({ reason: `${agent} reconnects: a new broker process` });
    await this.driver.disconnect(agent);
  }

  /** The broker dies (SIGKILL for a process) and a new instance opens the same store. */
  async crash(detail: Record<string, unknown>): Promise<void> {
    await this.driver.crash(detail);
    await this.driver.restart();
  }

  async advanceClock(ms: number): Promise<void> {
    await this.control.advanceClock(ms);
  }

  stop(): Promise<void> {
    return this.driver.stop();
  }
}
