/** What the simulated browser understands of a page: its title and the things on it, in order. */
export type PageItem =
  | { kind: "heading"; text: string }
  | { kind: "link"; text: string; href: string }
  | { kind: "button"; text: string }
  | { kind: "file-input"; text: string }
  | { kind: "iframe"; text: string; src: string };

export interface PageModel {
  title: string;
  items: PageItem[];
}

const TOKEN = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>|([^<]+)/g;
const ATTRIBUTE = /([a-zA-Z-]+)="([^"]*)"/g;
/** Elements whose text content the model keeps. */
const TEXT_HOLDERS = new Set(["title", "h1", "a", "button"]);

function attributes(source: string): Map<string, string> {
  return new Map([...source.matchAll(ATTRIBUTE)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
}

/**
 * Reads the small HTML subset of the fixture pages (title, h1, a, button, input type=file, iframe).
 * Not a general HTML parser: the simulated web is ours, and this is all it uses. Hrefs and frame
 * sources are resolved against the page's URL.
 */
export function readPage(html: string, baseUrl: string): PageModel {
  const model: PageModel = { title: "", items: [] };
  let open: { tag: string; attrs: Map<string, string>; text: string } | undefined;
  for (const [, closing, rawTag, attrSource, text] of html.matchAll(TOKEN)) {
    if (text !== undefined) {
      if (open) open.text += text;
      continue;
    }
    const tag = rawTag!.toLowerCase();
    const attrs = attributes(attrSource ?? "");
    if (!closing && TEXT_HOLDERS.has(tag)) {
      open = { tag, attrs, text: "" };
    } else if (closing && open?.tag === tag) {
      const content = open.text.replace(/\s+/g, " ").trim();
      if (tag === "title") model.title = content;
      else if (tag === "h1") model.items.push({ kind: "heading", text: content });
      else if (tag === "a") model.items.push({ kind: "link", text: content, href: new URL(open.attrs.get("href") ?? "", baseUrl).href });
      else model.items.push({ kind: "button", text: content });
      open = undefined;
    } else if (!closing && tag === "input" && attrs.get("type") === "file") {
      model.items.push({ kind: "file-input", text: attrs.get("aria-label") ?? "" });
    } else if (!closing && tag === "iframe") {
      model.items.push({ kind: "iframe", text: attrs.get("title") ?? "", src: new URL(attrs.get("src") ?? "", baseUrl).href });
    }
  }
  return model;
}
