import { randomUUID } from "node:crypto";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { freePort } from "./free-port.js";
import { violation } from "../harness-error.js";
import { McpConnection } from "../connection/mcp-connection.js";
import { afterStart, type BrokerAdapter, type BrokerWiring } from "./broker-adapter.js";
import { type Capability } from "../run/capabilities.js";
import { testcontainers } from "./testcontainers.js";
import { messageOf } from "../../protocol/errors.js";

const { GenericContainer, Wait, getContainerRuntimeClient } = testcontainers;
type Started = Awaited<ReturnType<InstanceType<typeof GenericContainer>["start"]>>;

/**
 * The broker runs under Docker's init (`docker run --init`), not as PID 1: the kernel ignores the
 * signals a PID 1 sends itself, so a broker's own SIGKILL (a crash fault hook) would not end it.
 */
class BrokerContainer extends GenericContainer {
  constructor(image: string) {
    super(image);
    this.hostConfig.Init = true;
  }
}

export const CONTAINER_LABEL = "lomi-conformance";
/** Where the broker's store directory is mounted inside the container. */
export const CONTAINER_STORE_DIR = "/lomi-store";
/** The line a broker image prints once it serves MCP (the reference broker's "listening on URL"). */
export const READY_LOG = /listening on/;
const MAX_DIAGNOSTICS = 20_000;
/** What docker's wait answers once a container exited (dockerode types it any). */
const exitOf = z.object({ StatusCode: z.number() });

/**
 * A broker image run with testcontainers. The container shares the host's network, so it reaches
 * the simulator on 127.0.0.1 and serves Streamable HTTP on 127.0.0.1:$LOMI_MCP_PORT/mcp. Its store
 * directory is a host directory mounted at /lomi-store: a crash is a SIGKILL of the container, and
 * a restart is a new container on the same store.
 */
export class ContainerAdapter implements BrokerAdapter {
  readonly description: string;
  readonly capabilities: ReadonlySet<Capability>;
  readonly simulator = { kind: "fresh-port" } as const;
  private wiring: BrokerWiring | undefined;
  private port = 0;
  private starts = 0;
  private container: Started | undefined;
  private readonly connections: McpConnection[] = [];
  private logs = "";
  /** Names this adapter's containers, so none outlives it. */
  private readonly label = `lomi-broker-${randomUUID().slice(0, 8)}`;

  constructor(
    private readonly image: string,
    private readonly timeoutMs: number,
    supportsFaults: boolean,
  ) {
    this.description = `broker image ${image} (container, Streamable HTTP)`;
    this.capabilities = new Set<Capability>(["crash", "multi-connection", "own-store", ...(supportsFaults ? (["faults"] as const) : [])]);
  }

  async start(wiring: BrokerWiring): Promise<void> {
    this.wiring = wiring;
    this.port = await freePort();
    await this.launch();
  }

  /** The environment contract, inside the container. */
  private environment(port: number): Record<string, string> {
    const w = afterStart(this.wiring);
    return {
      LOMI_NATIVE_URL: w.nativeUrl,
      LOMI_STORE_PATH: `${CONTAINER_STORE_DIR}/${path.basename(w.storePath)}`,
      LOMI_SEED: String(w.seed + this.starts++),
      LOMI_MCP_PORT: String(port),
      LOMI_BROKER_FAULTS: (w.faults ?? []).join(","),
    };
  }

  private get storeMount() {
    return { source: path.dirname(afterStart(this.wiring).storePath), target: CONTAINER_STORE_DIR };
  }

  private async launch(): Promise<void> {
    const name = `${this.label}-${this.starts}`;
    try {
      this.container = await new BrokerContainer(this.image)
        .withName(name)
        .withNetworkMode("host")
        .withEnvironment(this.environment(this.port))
        .withBindMounts([{ ...this.storeMount, mode: "rw" }])
        .withLabels({ [CONTAINER_LABEL]: "broker" })
        .withLogConsumer((stream) => stream.on("data", (chunk: Buffer | string) => (this.logs = (this.logs + chunk.toString()).slice(-MAX_DIAGNOSTICS))))
        .withWaitStrategy(Wait.forLogMessage(READY_LOG))
        .withStartupTimeout(this.timeoutMs)
        .start();
    } catch (error) {
      // testcontainers hands back no container that never became ready; it is found by its name.
      const client = await getContainerRuntimeClient();
      await client.container
        .getById(name)
        .remove({ force: true })
        .catch(() => undefined);
      throw violation(
        `the broker image did not print "listening on" within ${this.timeoutMs} ms: ${messageOf(error).split("\n")[0]}${this.logs ? `; container log ends: ${this.logs.slice(-600)}` : ""}`,
      );
    }
  }

  async connect(clientName: string): Promise<McpConnection> {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${this.port}/mcp`));
    const connection = await McpConnection.open(transport, clientName, this.timeoutMs, () =>
      this.logs ? `container log ends: ${this.logs.slice(-600)}` : undefined,
    );
    this.connections.push(connection);
    return connection;
  }

  /** SIGKILL to the container: no shutdown code runs. */
  async crash(): Promise<void> {
    const container = this.container;
    this.container = undefined;
    for (const c of this.connections.splice(0)) await c.close();
    if (!container) return;
    const client = await getContainerRuntimeClient();
    await client.container
      .getById(container.getId())
      .kill({ signal: "SIGKILL" })
      .catch(() => undefined);
    await container.stop({ remove: true, timeout: 0 });
    this.logs += "\n--- container killed ---\n";
  }

  async restart(): Promise<void> {
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.crash();
  }

  /** A second container on the live one's store must exit by itself, saying why (another port, so only the store is shared). */
  async probeSecondInstance(): Promise<{ refused: boolean; detail: string }> {
    const client = await getContainerRuntimeClient();
    const { source, target } = this.storeMount;
    const container = await client.container.create({
      name: `${this.label}-probe-${this.starts}`,
      Image: this.image,
      Labels: { [CONTAINER_LABEL]: "broker" },
      Env: Object.entries(this.environment(await freePort())).map(([k, v]) => `${k}=${v}`),
      HostConfig: { NetworkMode: "host", Init: true, Binds: [`${source}:${target}`] },
    });
    try {
      await client.container.start(container);
      const exited = exitOf.safeParse(await Promise.race([container.wait(), delay(this.timeoutMs, undefined, { ref: false })])).data;
      // Docker frames each log chunk with an 8-byte header; the text is what matters here.
      const log = (await container.logs({ stdout: true, stderr: true, follow: false })).toString("latin1").replace(/[\x00-\x08]/g, "");
      if (!exited) return { refused: false, detail: `still running after ${this.timeoutMs} ms on the same store` };
      return { refused: exited.StatusCode !== 0, detail: `exit ${exited.StatusCode}: ${log.trim().slice(-500)}` };
    } finally {
      await container.remove({ force: true }).catch(() => undefined);
    }
  }

  diagnostics(): string {
    return this.logs;
  }
}
