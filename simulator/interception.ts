import { getResponse, type HttpHandler } from "msw";
import { setupServer } from "msw/node";

/** The origin in-process brokers and harnesses use; msw answers it inside the process, nothing listens. */
export const IN_PROCESS_ORIGIN = "http://lomi-native.invalid";

let server: ReturnType<typeof setupServer> | undefined;
let routed: HttpHandler[] = [];

/** Routes this process's fetch calls to the given handlers (one simulator at a time per process). */
export function interceptInProcess(handlers: HttpHandler[]): void {
  routed = handlers;
  if (server) {
    server.resetHandlers(...handlers);
    return;
  }
  server = setupServer(...handlers);
  server.listen({ onUnhandledRequest: "bypass" });
}

export function stopInterception(): void {
  server?.close();
  server = undefined;
  routed = [];
}

/**
 * A fetch for an in-process broker: requests to IN_PROCESS_ORIGIN go straight to the routed handlers
 * (still a Request and a JSON Response each way, without msw's interception of every fetch, which
 * costs most of a native call); any other URL goes to the real fetch.
 */
export async function inProcessFetch(url: string, init: RequestInit): Promise<Response> {
  if (!url.startsWith(IN_PROCESS_ORIGIN)) return fetch(url, init);
  const response = await getResponse(routed, new Request(url, init));
  if (!response) throw new TypeError(`no simulated Lomi answers ${url}`);
  // A lost reply (HttpResponse.error()) is a network failure, as fetch reports it: the reply never arrives.
  if (response.type === "error") throw new TypeError("fetch failed", { cause: new Error("the simulated Lomi dropped the connection (a lost reply)") });
  return response;
}
