import type http from "node:http";

/** What a keep-alive response tells the client: reuse this idle connection for at most this long. */
export const ADVERTISED_IDLE_SECONDS = 5;
/** How long the server really keeps an idle keep-alive connection open. */
export const IDLE_CONNECTION_MS = 10 * 60 * 1000;

/**
 * Keeps idle keep-alive connections open far longer than clients are told to reuse them. Node's
 * default closes one 1 s after the time it advertises, and undici retires it 1 s before: a client
 * whose event loop runs a few seconds late (a loaded machine) sends its next request into a socket
 * the server has just closed, and a POST fails ("other side closed") unread and is not retried.
 */
export function holdIdleConnections(server: http.Server): void {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  // Setting the header ourselves stops Node from advertising keepAliveTimeout itself.
  server.prependListener("request", (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (res.shouldKeepAlive) res.setHeader("keep-alive", `timeout=${ADVERTISED_IDLE_SECONDS}`);
  });
}
