import { createServer, type Server } from "node:net";
import { harnessFault } from "../harness-error.js";

/** The port of a server listening on a TCP host and port (its address is a string only for a pipe or socket path). */
export function listeningPort(server: Server): number {
  const address = server.address();
  if (address === null || typeof address === "string") throw harnessFault(`a server meant to listen on a TCP port has the address ${String(address)}`);
  return address.port;
}

/** A port nothing listens on right now on 127.0.0.1 (for a server the harness asks another process to start). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = listeningPort(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}
