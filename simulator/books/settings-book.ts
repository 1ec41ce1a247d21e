import { LomiError } from "../../protocol/errors.js";
import { SETTINGS_RANGES, SETTINGS_SECTION_NAMES, type SectionValues, type SettingsSection } from "../../protocol/tools/settings.js";

const DEFAULTS: SectionValues = {
  editor: { fontSize: 14, tabSize: 2, wordWrap: false },
  terminal: { fontSize: 13, scrollbackLines: 10_000, cursorStyle: "block" },
  appearance: { theme: "system", reduceMotion: false },
  permissions: { allowNetwork: false, autoApproveCommands: false },
};

interface SectionState<S extends SettingsSection = SettingsSection> {
  values: SectionValues[S];
  revision: bigint;
}

/** Lomi's settings: one set for the app, each section with its own decimal revision, starting at 1. */
export class SettingsBook {
  private readonly sections = new Map<SettingsSection, SectionState>(SETTINGS_SECTION_NAMES.map((s) => [s, { values: { ...DEFAULTS[s] }, revision: 1n }]));

  private state(section: SettingsSection): SectionState {
    return this.sections.get(section)!;
  }

  view() {
    const entry = (s: SettingsSection) => ({ settingsRevision: this.state(s).revision.toString(), values: { ...this.state(s).values } });
    return { sections: { editor: entry("editor"), terminal: entry("terminal"), appearance: entry("appearance"), permissions: entry("permissions") } };
  }

  /** The native validators of a change: the section's current revision, and the narrower ranges. */
  check(section: SettingsSection, values: Record<string, unknown>, expectedRevision: string): void {
    const current = this.state(section).revision;
    if (BigInt(expectedRevision) !== current) {
      throw new LomiError(
        "REVISION_CONFLICT",
        `expectedSettingsRevision ${expectedRevision} is stale for section ${section}; its settingsRevision is ${current}. Read the settings again.`,
        {
          field: "expectedSettingsRevision",
          currentRevision: current.toString(),
        },
      );
    }
    for (const [key, value] of Object.entries(values)) {
      const range = SETTINGS_RANGES[key];
      if (range && typeof value === "number" && (value < range.min || value > range.max)) {
        throw new LomiError("OUT_OF_RANGE", `${section}.${key} must be between ${range.min} and ${range.max}; ${value} is not.`, {
          field: `values.${key}`,
          min: range.min,
          max: range.max,
        });
      }
    }
  }

  /** Saves a change: the section's values merge it and its revision moves on by one. */
  apply(section: SettingsSection, values: Record<string, unknown>) {
    const state = this.state(section);
    state.values = { ...state.values, ...values } as SectionValues[SettingsSection];
    state.revision += 1n;
    return { section, settingsRevision: state.revision.toString(), values: { ...state.values } };
  }
}
