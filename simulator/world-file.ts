import { readFileSync } from "node:fs";
import { worldSeedSchema, type WorldSeed } from "../protocol/control-api.js";
import { LomiError, messageOf } from "../protocol/errors.js";
import { kitPath } from "../protocol/kit-root.js";

export const DEFAULT_WORLD_FILE = kitPath("fixtures/worlds/default.json");

/** Reads and validates a world seed file; a bad file is a typed error naming the file and the field. */
export function readWorldFile(file: string = DEFAULT_WORLD_FILE): WorldSeed {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new LomiError("INVALID_ARGUMENT", `Cannot read world file ${file}: ${messageOf(error)}`);
  }
  const parsed = worldSeedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new LomiError("INVALID_ARGUMENT", `World file ${file}: ${issue?.path.join(".")}: ${issue?.message}`);
  }
  return raw as WorldSeed;
}
