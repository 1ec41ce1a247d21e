import { z } from "zod";
import { decimalRevision, id, requestKey, retryEpoch } from "../fields.js";
import type { ObservationContract, OperationContract } from "../tool-contract.js";
import { admissionData } from "./admission.js";

// Lomi's settings, one set for the app, in sections; each section has its own compare-and-set revision.
// The schemas give the shape; Lomi's native validators hold the narrower ranges (SETTINGS_RANGES).
const fontSize = z.number().int().positive();
export const SETTINGS_SECTIONS = {
  editor: z.strictObject({ fontSize, tabSize: z.number().int().positive(), wordWrap: z.boolean() }),
  terminal: z.strictObject({ fontSize, scrollbackLines: z.number().int().positive(), cursorStyle: z.enum(["block", "bar", "underline"]) }),
  appearance: z.strictObject({ theme: z.enum(["light", "dark", "system"]), reduceMotion: z.boolean() }),
  /** What agents may do without asking: changing it needs the user's decision in Lomi. */
  permissions: z.strictObject({ allowNetwork: z.boolean(), autoApproveCommands: z.boolean() }),
} as const;
export type SettingsSection = keyof typeof SETTINGS_SECTIONS;
export const SETTINGS_SECTION_NAMES = Object.keys(SETTINGS_SECTIONS) as [SettingsSection, ...SettingsSection[]];
export type SectionValues = { [S in SettingsSection]: z.infer<(typeof SETTINGS_SECTIONS)[S]> };

/** Sections whose change Lomi puts to the user before it happens. */
export const SECTIONS_NEEDING_APPROVAL: ReadonlySet<SettingsSection> = new Set(["permissions"]);

/** The native ranges, narrower than the schema: a value outside is OUT_OF_RANGE. */
export const SETTINGS_RANGES: Readonly<Record<string, { min: number; max: number }>> = {
  fontSize: { min: 6, max: 72 },
  tabSize: { min: 1, max: 16 },
  scrollbackLines: { min: 100, max: 100_000 },
};

const sectionState = <S extends z.ZodType>(values: S) => z.strictObject({ settingsRevision: decimalRevision, values });

export const settingsRead = {
  name: "lomi_settings_read",
  kind: "observation",
  title: "Read Lomi's settings",
  description:
    "Reads every settings section (editor, terminal, appearance, permissions) with its values and its decimal settingsRevision, the compare-and-set token lomi_settings_update expects for that section.",
  input: z.strictObject({ workspaceId: id }),
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
  .strictObject({ ...SETTINGS_SECTIONS.editor.shape, ...SETTINGS_SECTIONS.terminal.shape, ...SETTINGS_SECTIONS.appearance.shape, ...SETTINGS_SECTIONS.permissions.shape })
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
  input: z
    .strictObject({
      workspaceId: id,
      projectId: id.optional(),
      section: z.enum(SETTINGS_SECTION_NAMES),
      values: settingsValues,
      expectedSettingsRevision: decimalRevision,
      retryEpoch,
      requestKey,
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
