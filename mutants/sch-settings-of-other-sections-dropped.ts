import { SETTINGS_SECTIONS, type SettingsSection } from "../protocol/tools/settings.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked, type Args } from "./rewriting-session.js";

/** The settings of `values` that are not of `section`: what this broker drops without a word. */
const foreign = (section: unknown, values: unknown): string[] => {
  const own = SETTINGS_SECTIONS[section as SettingsSection]?.shape;
  return own === undefined || typeof values !== "object" || values === null ? [] : Object.keys(values).filter((k) => !(k in own));
};

export const schSettingsOfOtherSectionsDropped: Mutant = {
  name: "sch-settings-of-other-sections-dropped",
  family: "SCH",
  // SCH-41: "a setting of another section is rejected with INVALID_ARGUMENT naming the field, and nothing is dispatched".
  breaks: ["SCH-41"],
  defect:
    "lomi_settings_update keeps only the settings of the section it names (as a schema that strips would) and changes those: a setting of another section is dropped without a word, not refused",
  parts: {
    session: sessionWrappingPicked(
      ({ tool, args }) => tool === "lomi_settings_update" && foreign(args.section, args.values).length > 0,
      ({ call }, name, args) => {
        const dropped = foreign(args.section, args.values);
        return call(name, { ...args, values: Object.fromEntries(Object.entries(args.values as Args).filter(([k]) => !dropped.includes(k))) });
      },
    ),
  },
};
