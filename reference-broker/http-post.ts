import http from "node:http";
import { readAll } from "../protocol/read-all.js";

/** A POST of JSON as the native client sends it. */
export interface NativeRequest {
  method: "POST";
  headers: Record<string, string>;
  body: string;
}

/** What the native client reads of a reply: fetch's Response has it, and so has httpPost's. */
export interface NativeReply {
  ok: boolean;
  status: number;
  json(): Promise<unknown>;
}

/** The native client's port to HTTP; `fetch` fits it, as does a test's or an in-process stand-in. */
export type Fetch = (url: string, init: NativeRequest) => Promise<NativeReply>;

// Idle connections close after 4 s, inside the 5 s a native bridge advertises (Keep-Alive: timeout=5):
// a POST that meets a socket the server has closed fails unread and is not retried (it may be a dispatch).
const IDLE_MS = 4_000;
const agent = new http.Agent({ keepAlive: true, timeout: IDLE_MS });

/**
 * The reference broker's default Fetch: node:http with kept-alive connections. Not the global fetch:
 * its first call loads undici, about 40 ms of CPU at every broker start, and a harness starts a broker
 * per scenario. Plain HTTP only: the native bridge is a loopback URL.
 */
export function httpPost(url: string, init: NativeRequest): Promise<NativeReply> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: init.method, headers: { ...init.headers, "content-length": Buffer.byteLength(init.body) }, agent },
      (response) => {
        readAll(response).then((body) => {
          const status = response.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, json: async (): Promise<unknown> => JSON.parse(body.toString("utf8")) });
        }, reject);
      },
    );
    request.on("error", reject);
    request.end(init.body);
  });
}
