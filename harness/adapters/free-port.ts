import { createServer } from "node:net";

/** A port nothing listens on right now on 127.0.0.1 (for a server the harness asks another process to start). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
