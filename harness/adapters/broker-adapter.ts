import type { McpConnection } from "../mcp-connection.js";

/** What a broker under test can take part in; scenarios that need more are "not applicable". */
export type Capability = "crash" | "multi-connection";

export interface BrokerWiring {
  /** The simulator's native bridge, as LOMI_NATIVE_URL. */
  nativeUrl: string;
  /** The receipt store file, as LOMI_STORE_PATH; the same file across restarts. */
  storePath: string;
  seed: number;
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
  /** What the broker wrote to stderr, for failure reports. */
  diagnostics(): string;
}
