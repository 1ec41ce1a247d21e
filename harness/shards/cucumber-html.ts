import { createWriteStream } from "node:fs";
import { createRequire } from "node:module";
import { finished } from "node:stream/promises";
import type { Envelope } from "@cucumber/messages";

/**
 * cucumber.html from a message stream, by cucumber's own HTML formatter. It is cucumber's
 * dependency, not the kit's: resolved from where cucumber is installed, so it is the one cucumber
 * writes its own report with, wherever npm put it.
 */
export async function writeCucumberHtml(file: string, envelopes: readonly Envelope[]): Promise<void> {
  const fromCucumber = createRequire(createRequire(import.meta.url).resolve("@cucumber/cucumber"));
  const { CucumberHtmlStream } = fromCucumber("@cucumber/html-formatter") as { CucumberHtmlStream: new () => NodeJS.ReadWriteStream };
  const html = new CucumberHtmlStream();
  const out = createWriteStream(file);
  html.pipe(out);
  for (const e of envelopes) html.write(e as unknown as string);
  html.end();
  await finished(out);
}
