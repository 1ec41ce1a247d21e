import { createHash, timingSafeEqual } from "node:crypto";
import type http from "node:http";

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"];

export function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1";
}

/** Why a request is refused before it reaches MCP, as an HTTP status and a message; undefined lets it through. */
export interface Refusal {
  status: number;
  message: string;
}

export interface HttpGuardOptions {
  /** The address the endpoint is bound to. */
  host: string;
  port: number;
  /** The bearer token every request must carry; required when `host` is not loopback. */
  token?: string;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Refuses what a web page or another host must not do: a Host header that is not this loopback
 * endpoint (DNS rebinding), an Origin that is not this endpoint (a page calling the broker; `null`
 * included), and a request without the bearer token when one is set (compared in constant time).
 */
export function refusalOf(req: http.IncomingMessage, options: HttpGuardOptions): Refusal | undefined {
  const origins = LOOPBACK_HOSTS.map((h) => `http://${h}:${options.port}`);
  if (isLoopback(options.host)) {
    const host = req.headers.host ?? "";
    if (!LOOPBACK_HOSTS.some((h) => host === `${h}:${options.port}`))
      return { status: 403, message: `Forbidden: Host ${JSON.stringify(host.slice(0, 64))} is not this loopback endpoint.` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !origins.includes(origin) && !(options.host !== "0.0.0.0" && origin === `http://${options.host}:${options.port}`)) {
    return { status: 403, message: `Forbidden: Origin ${JSON.stringify(origin.slice(0, 64))} may not call this broker.` };
  }
  if (options.token !== undefined) {
    const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    // Digests have equal lengths, so the comparison takes the same time whatever was presented.
    if (!timingSafeEqual(digest(presented), digest(options.token)))
      return { status: 401, message: "Unauthorized: this broker needs its bearer token (Authorization: Bearer TOKEN)." };
  }
  return undefined;
}
