import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { getResponse, http, HttpResponse } from "msw";
import { kitPath } from "../../protocol/kit-root.js";

/** The simulated web: one folder per made-up origin under fixtures/pages; nothing leaves the process. */
export const PAGES_DIR = `${kitPath("fixtures/pages")}/`;
const NOT_FOUND_PAGE = path.join(PAGES_DIR, "not-found.html");

/** Hosts under .lomi.test (a reserved TLD, so no real server is ever meant). */
const SIMULATED_ORIGIN = /^https?:\/\/[a-z0-9-]+\.lomi\.test(?::\d+)?\//;

const html = (body: string, status: number) => new HttpResponse(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });

/**
 * msw handlers for the simulated web, used by the simulated browser only (never installed as
 * interception): a host with a folder answers its files, 404 for the rest; any other host has no server.
 */
export const PAGE_HANDLERS = [
  http.get(SIMULATED_ORIGIN, async ({ request }) => {
    const url = new URL(request.url);
    const hostDir = path.join(PAGES_DIR, url.hostname);
    if (!existsSync(hostDir)) return undefined;
    // URL parsing has already removed any "..": the file stays inside the host's folder.
    const file = path.join(hostDir, url.pathname.endsWith("/") ? `${url.pathname}index.html` : url.pathname);
    if (!existsSync(file)) return html(await readFile(NOT_FOUND_PAGE, "utf8"), 404);
    return html(await readFile(file, "utf8"), 200);
  }),
];

export interface FetchedPage {
  status: number;
  body: string;
}

/** A GET as the simulated browser makes it; undefined when no server answers the URL. */
export async function fetchPage(url: string): Promise<FetchedPage | undefined> {
  const response = await getResponse(PAGE_HANDLERS, new Request(url));
  if (!response) return undefined;
  return { status: response.status, body: await response.text() };
}
