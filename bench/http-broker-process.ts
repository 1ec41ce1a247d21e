import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** `node bin/lomi-broker.js` over Streamable HTTP on one store, which the bench or the soak kills and restarts. */
export class BrokerProcess {
  private child: ChildProcess | undefined;
  /** Resolves with the URL of the running instance; replaced at every restart. */
  ready: Promise<string> = Promise.resolve("");
  generation = 0;
  /** Tool calls sent to the running instance, and who waits for a count of them. */
  private calls = 0;
  private waiting: { count: number; resolve: () => void } | undefined;

  constructor(
    private readonly nativeUrl: string,
    private readonly store: string,
    private readonly seed: number,
  ) {}

  start(): Promise<string> {
    const child = spawn(
      process.execPath,
      [
        "bin/lomi-broker.js",
        "--native-url",
        this.nativeUrl,
        "--store",
        this.store,
        "--transport",
        "http",
        "--port",
        "0",
        "--seed",
        String(this.seed + this.generation),
      ],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    this.child = child;
    this.generation++;
    this.calls = 0;
    this.ready = new Promise((resolve, reject) => {
      let seen = "";
      child.stderr!.on("data", (c: Buffer) => {
        seen += c.toString();
        const found = /listening on (http:\/\/\S+)/.exec(seen);
        if (found) resolve(found[1]!);
      });
      child.once("exit", (code, signal) => reject(new Error(`the broker exited (${code ?? signal}) before it listened: ${seen}`)));
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  noteCall(): void {
    this.calls++;
    if (this.waiting && this.calls >= this.waiting.count) this.waiting.resolve();
  }

  /** Resolves once `count` tool calls have gone to this instance: a kill then lands amid work, however slow the machine. */
  callsReached(count: number): Promise<void> {
    if (this.calls >= count) return Promise.resolve();
    return new Promise((resolve) => (this.waiting = { count, resolve }));
  }

  /** The running instance's pid, while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGKILL");
    await once(child, "exit");
  }
}
