import { readFileSync } from "node:fs";
import { CATALOGUE, publishedTool, type PublishedTool } from "../protocol/catalogue.js";
import { systemCodeOf } from "../protocol/errors.js";

/**
 * Where the build writes tools/list (scripts/build.mjs): dist/tools-list.json, the parent folder of
 * both compiled forms of this module (dist/reference-broker/ and dist/bundle/). Run from its
 * TypeScript, this module finds no such file beside the sources and converts the contracts instead.
 */
export const TOOLS_LIST_FILE = new URL("../tools-list.json", import.meta.url);

/** Every tool as tools/list publishes it, converted from the contracts' zod schemas (a quarter of a second). */
export const convertedToolsList = (): PublishedTool[] => CATALOGUE.map(publishedTool);

let tools: PublishedTool[] | undefined;

/**
 * tools/list's answer, read from the build's file when there is one: a broker started for each
 * scenario then converts no schema. The build writes it from the same sources as the code it
 * compiled, and a unit test holds it equal to a fresh conversion.
 */
export function toolsList(): PublishedTool[] {
  if (tools) return tools;
  let text: string | undefined;
  try {
    text = readFileSync(TOOLS_LIST_FILE, "utf8");
  } catch (error) {
    if (systemCodeOf(error) !== "ENOENT") throw error;
  }
  tools = text === undefined ? convertedToolsList() : (JSON.parse(text) as PublishedTool[]);
  return tools;
}
