import { z } from "zod";
import { decimalRevision, field } from "../fields.js";
import { READ_ONLY, changes, type ObservationContract, type OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

// Lomi's settings, one set for the app, in sections; each section has its own compare-and-set revision.
// The schemas give the shape; Lomi's native validators hold the narrower ranges (SETTINGS_RANGES).
/** The native ranges, narrower than the schema: a value outside is OUT_OF_RANGE. */
const RANGES = {
  fontSize: { min: 6, max: 72 },
  tabSize: { min: 1, max: 16 },
  scrollbackLines: { min: 100, max: 100_000 },
};
/** Looked up by the name of any setting a client sends: most have no range. */
export const SETTINGS_RANGES: Readonly<Record<string, { min: number; max: number }>> = RANGES;

/** A positive integer setting, described with the range Lomi enforces. */
const ranged = (name: keyof typeof RANGES, what: string) =>
  z.number().int().positive().describe(`${what}: Lomi accepts ${RANGES[name].min}-${RANGES[name].max} (otherwise OUT_OF_RANGE).`);
const fontSize = ranged("fontSize", "Font size in points (editor or terminal, by section)");
const flag = (what: string) => z.boolean().describe(what);
export const SETTINGS_SECTIONS = {
  editor: z.strictObject({ fontSize, tabSize: ranged("tabSize", "Spaces per tab stop"), wordWrap: flag("editor: wrap long lines.") }),
  terminal: z.strictObject({
    fontSize,
    scrollbackLines: ranged("scrollbackLines", "Lines of terminal history kept"),
    cursorStyle: z.enum(["block", "bar", "underline"]).describe("terminal: the cursor's shape, block, bar or underline."),
  }),
  appearance: z.strictObject({
    theme: z.enum(["light", "dark", "system"]).describe("appearance: light, dark or system (follow the operating system)."),
    reduceMotion: flag("appearance: reduce animations."),
  }),
  /** What agents may do without asking: changing it needs the user's decision in Lomi. */
  permissions: z.strictObject({
    allowNetwork: flag("permissions: agents may use the network without asking (the user decides the change)."),
    autoApproveCommands: flag("permissions: agents' commands run without asking (the user decides the change)."),
  }),
} as const;
export type SettingsSection = keyof typeof SETTINGS_SECTIONS;
export const SETTINGS_SECTION_NAMES = Object.keys(SETTINGS_SECTIONS) as [SettingsSection, ...SettingsSection[]];
export type SectionValues = { [S in SettingsSection]: z.infer<(typeof SETTINGS_SECTIONS)[S]> };

/** Sections whose change Lomi puts to the user before it happens. */
export const SECTIONS_NEEDING_APPROVAL: ReadonlySet<SettingsSection> = new Set(["permissions"]);

const sectionState = <S extends z.ZodType>(values: S) => z.strictObject({ settingsRevision: decimalRevision, values });

export const settingsRead = {
  name: "lomi_settings_read",
  kind: "observation",
  title: "Read Lomi's settings",
  description:
    "Reads every settings section (editor, terminal, appearance, permissions) with its values and its decimal settingsRevision, the compare-and-set token lomi_settings_update expects for that section.",
  hints: READ_ONLY,
  input: z.strictObject({ workspaceId: field.workspaceId }),
  data: z.strictObject({
    sections: z.strictObject({
      editor: sectionState(SETTINGS_SECTIONS.editor),
      terminal: sectionState(SETTINGS_SECTIONS.terminal),
      appearance: sectionState(SETTINGS_SECTIONS.appearance),
      permissions: sectionState(SETTINGS_SECTIONS.permissions),
    }),
  }),
} satisfies ObservationContract;

// One object holding every section's settings, each optional; the refinement keeps them to the named
// section. A union of the sections would match several variants for one key (fontSize) and, on a bad
// key, report the union rather than the field.
const settingsValues = z
  .strictObject({
    ...SETTINGS_SECTIONS.editor.shape,
    ...SETTINGS_SECTIONS.terminal.shape,
    ...SETTINGS_SECTIONS.appearance.shape,
    ...SETTINGS_SECTIONS.permissions.shape,
  })
  .partial();

const settingsUpdateResult = z.strictObject({
  section: z.enum(SETTINGS_SECTION_NAMES),
  settingsRevision: decimalRevision,
  values: z.union([SETTINGS_SECTIONS.editor, SETTINGS_SECTIONS.terminal, SETTINGS_SECTIONS.appearance, SETTINGS_SECTIONS.permissions]),
});

export const settingsUpdate = {
  name: "lomi_settings_update",
  kind: "operation",
  title: "Change one settings section",
  description:
    "Changes settings of one section. values holds only settings of that section (editor: fontSize, tabSize, wordWrap; terminal: fontSize, scrollbackLines, cursorStyle; appearance: theme, reduceMotion; permissions: allowNetwork, autoApproveCommands). expectedSettingsRevision is the section's settingsRevision from lomi_settings_read; a stale one is refused with nothing changed. Lomi enforces narrower ranges (fontSize 6-72, tabSize 1-16, scrollbackLines 100-100000). A permissions change waits in awaiting_user until the user decides in Lomi; a denial settles failed with USER_DENIED. Cancel cannot undo a completed save.",
  hints: changes({ destructive: true }),
  input: z
    .strictObject({
      workspaceId: field.workspaceId,
      projectId: field.anchorProjectId,
      section: z.enum(SETTINGS_SECTION_NAMES).describe(`The one section to change: ${SETTINGS_SECTION_NAMES.join(", ")}.`),
      values: settingsValues.describe("The settings to change, all of the named section, at least one; settings left out keep their values."),
      expectedSettingsRevision: decimalRevision.describe(
        "The section's settingsRevision (a decimal string) from a fresh lomi_settings_read; a stale one is refused with REVISION_CONFLICT and nothing changed.",
      ),
      retryEpoch: field.retryEpoch,
      requestKey: field.requestKey,
    })
    .superRefine((input, ctx) => {
      const allowed = Object.keys(SETTINGS_SECTIONS[input.section].shape);
      const keys = Object.keys(input.values);
      if (keys.length === 0) ctx.addIssue({ code: "custom", path: ["values"], message: `name at least one setting of section ${input.section}` });
      for (const key of keys.filter((k) => !allowed.includes(k))) {
        ctx.addIssue({ code: "custom", path: ["values", key], message: `${key} is not a setting of section ${input.section} (${allowed.join(", ")})` });
      }
    }),
  result: settingsUpdateResult,
  data: admissionData("lomi_settings_update", settingsUpdateResult),
  revisionField: "expectedSettingsRevision",
  // Settings are Lomi's, not a workspace's: changes to one section run one at a time, whoever asks.
  serializeOn: "section",
} satisfies OperationContract;
