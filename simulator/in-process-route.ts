import type { SimulatorHost } from "./host.js";
import { LOST_REPLY, simulatorRoutes, type RouteTable } from "./routes.js";

/** The origin in-process brokers and harnesses use; the routes answer it inside the process, nothing listens. */
export const IN_PROCESS_ORIGIN = "http://lomi-native.invalid";

/** What a caller reads of a reply: fetch's Response has it too. */
export interface InProcessReply {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

let routed: RouteTable | undefined;

/** This process's requests to IN_PROCESS_ORIGIN go to `host` from now on (one simulator at a time per process). */
export function routeInProcess(host: SimulatorHost): void {
  routed = simulatorRoutes(host);
}

export function stopRouting(): void {
  routed = undefined;
}

/**
 * A fetch for an in-process broker or harness: a request to IN_PROCESS_ORIGIN calls its route as over
 * HTTP, and the reply is JSON text parsed afresh for the caller (no object is shared with the
 * simulator). Not through msw: its Request, Response, cookies and AbortSignal cost about 1 ms of CPU a
 * call, more than the broker's own work on most calls. Any other URL goes to fetch.
 */
export async function inProcessFetch(url: string, init: RequestInit): Promise<InProcessReply> {
  if (!url.startsWith(IN_PROCESS_ORIGIN)) return fetch(url, init);
  const method = init.method ?? "GET";
  const reply = await routed?.answer(method, url.slice(IN_PROCESS_ORIGIN.length), async () => (typeof init.body === "string" ? init.body : undefined));
  if (reply === undefined) throw new TypeError(`no simulated Lomi answers ${method} ${url}`);
  // A lost reply is a network failure, as fetch reports it: the reply never arrives.
  if (reply === LOST_REPLY) throw new TypeError("fetch failed", { cause: new Error("the simulated Lomi dropped the connection (a lost reply)") });
  const text = JSON.stringify(reply.body);
  return { ok: reply.status >= 200 && reply.status < 300, status: reply.status, json: async (): Promise<unknown> => JSON.parse(text) };
}
