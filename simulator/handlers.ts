import { http, HttpResponse, type HttpHandler, type JsonBodyType } from "msw";
import type { SimulatorHost } from "./host.js";
import { bridgeRoutes, controlRoutes, LOST_REPLY, type SimulatorRoute } from "./routes.js";

/** A route as an msw handler, for the simulated Lomi served over HTTP. */
function mswHandler(route: SimulatorRoute): HttpHandler {
  const method = route.method === "GET" ? http.get : http.post;
  return method(`*${route.path}`, async ({ request }) => {
    const reply = route.reply(route.method === "POST" ? await request.text() : undefined);
    return reply === LOST_REPLY ? HttpResponse.error() : HttpResponse.json(reply.body as JsonBodyType, { status: reply.status });
  });
}

/** Matches every bridge and control request, waits for in-flight native work, and falls through to the route. */
function afterBackgroundWork(host: SimulatorHost): HttpHandler {
  return http.all(/\/(native|control)\/v1\//, async () => {
    await host.current.idle();
  });
}

export function simulatorHandlers(host: SimulatorHost): HttpHandler[] {
  return [afterBackgroundWork(host), ...[...bridgeRoutes(host), ...controlRoutes(host)].map(mswHandler)];
}

/** The control API alone, for a simulated Lomi whose bridge only its own process uses (lomi-broker --simulate). */
export function controlApiHandlers(host: SimulatorHost): HttpHandler[] {
  return [afterBackgroundWork(host), ...controlRoutes(host).map(mswHandler)];
}
