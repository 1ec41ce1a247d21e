import type { HttpHandler } from "msw";
import { setupServer } from "msw/node";

/** The origin in-process brokers and harnesses use; msw answers it inside the process, nothing listens. */
export const IN_PROCESS_ORIGIN = "http://lomi-native.invalid";

let server: ReturnType<typeof setupServer> | undefined;

/** Routes this process's fetch calls to the given handlers (one simulator at a time per process). */
export function interceptInProcess(handlers: HttpHandler[]): void {
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
}
