import { http, HttpResponse, type HttpHandler, type JsonBodyType } from "msw";
import type { SimulatorHost } from "./host.js";
import { LOST_REPLY, simulatorRoutes, type RouteTable } from "./routes.js";

/**
 * A simulated Lomi's routes as one msw handler, for tests and benches of clients that msw serves
 * (brokers in other processes get the routes from node:http directly: http-server.ts serveRoutes). One, not one per route: msw parses
 * every handler it tries (its URL pattern, the request's cookies), so a handler that looks the route
 * up in the table costs a fraction of a list that msw walks to the route.
 */
function routesHandler(table: RouteTable): HttpHandler {
  return http.all(/\/(native|control)\/v1\//, async ({ request }) => {
    const reply = await table.answer(request.method, new URL(request.url).pathname, async () => (request.method === "POST" ? request.text() : undefined));
    if (reply === undefined) return undefined; // no route: the server's 404
    return reply === LOST_REPLY ? HttpResponse.error() : HttpResponse.json(reply.body as JsonBodyType, { status: reply.status });
  });
}

export function simulatorHandlers(host: SimulatorHost): HttpHandler[] {
  return [routesHandler(simulatorRoutes(host))];
}
