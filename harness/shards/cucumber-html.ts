import { createWriteStream } from "node:fs";
import { createRequire } from "node:module";
import { pipeline } from "node:stream/promises";
import type { Envelope } from "@cucumber/messages";

/**
 * cucumber.html from a message stream, by cucumber's own HTML formatter. It is cucumber's
 * dependency, not the kit's: resolved from where cucumber is installed, so it is the one cucumber
 * writes its own report with, wherever npm put it.
 */
export async function writeCucumberHtml(file: string, envelopes: readonly Envelope[]): Promise<void> {
  const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
  // require() answers any: the module is the formatter package whose types the kit compiles against.
  const { CucumberHtmlStream } = fromCucumber("@cucumber/html-formatter") as typeof import("@cucumber/html-formatter");
  const html = new CucumberHtmlStream();
  const done = pipeline(html, createWriteStream(file));
  for (const e of envelopes) html.write(e);
  html.end();
  await done;
}
