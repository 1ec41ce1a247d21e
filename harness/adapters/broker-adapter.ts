import type { McpConnection } from "../mcp-connection.js";

/** What a broker under test can take part in; scenarios that need more are "not applicable". */
export type Capability = "crash" | "multi-connection" | "faults";

export interface BrokerWiring {
  /** The simulator's native bridge, as LOMI_NATIVE_URL. */
  nativeUrl: string;
  /** The receipt store file, as LOMI_STORE_PATH; the same file across restarts. */
  storePath: string;
  seed: number;
  /** Fault hooks to arm in the broker (LOMI_BROKER_FAULTS), for a broker with the "faults" capability. */
  faults?: string[];
}

/** How the harness starts, reaches, kills and restarts one kind of broker. */
export interface BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  /** Whether the simulator must listen on a real port (the broker runs in another process). */
  readonly needsNetworkSimulator: boolean;
  start(wiring: BrokerWiring): Promise<void>;
  connect(clientName: string): Promise<McpConnection>;
  /** Abrupt death: no shutdown code runs, open connections die with it. */
  crash(): Promise<void>;
  /** A new instance on the same store. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Starts another instance on the live instance's store and reports whether it was refused
   * (and why). Optional: a broker the harness cannot start twice makes the check not applicable.
   */
  probeSecondInstance?(): Promise<{ refused: boolean; detail: string }>;
  /** What the broker wrote to stderr, for failure reports. */
  diagnostics(): string;
}
