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
 * A fetch that answers requests to `origin` by calling `routes()` as over HTTP, the reply JSON text
 * parsed afresh for the caller (no object is shared with the simulator); any other URL goes to fetch.
 * Not through msw: its Request, Response, cookies and AbortSignal cost about 1 ms of CPU a call, more
 * than the broker's own work on most calls.
 */
export function routedFetch(origin: string, routes: () => RouteTable | undefined) {
  return async (url: string, init: RequestInit): Promise<InProcessReply> => {
    if (!url.startsWith(origin)) return fetch(url, init);
    const method = init.method ?? "GET";
    const reply = await routes()?.answer(method, url.slice(origin.length), async () => (typeof init.body === "string" ? init.body : undefined));
    if (reply === undefined) throw new TypeError(`no simulated Lomi answers ${method} ${url}`);
    // A lost reply is a network failure, as fetch reports it: the reply never arrives.
    if (reply === LOST_REPLY) throw new TypeError("fetch failed", { cause: new Error("the simulated Lomi dropped the connection (a lost reply)") });
    const text = JSON.stringify(reply.body);
    return { ok: reply.status >= 200 && reply.status < 300, status: reply.status, json: async (): Promise<unknown> => JSON.parse(text) };
  };
}

/** The fetch of an in-process broker or harness: IN_PROCESS_ORIGIN reaches the simulator routeInProcess named. */
export const inProcessFetch = routedFetch(IN_PROCESS_ORIGIN, () => routed);
