/**
 * Where docs/ already say how to satisfy a rule: a failure of that rule points there in one line
 * (the rule, the doc, its heading, the words that say it), once a run. Data, not text in messages:
 * test/unit/fix-pointers.test.ts checks that each heading is in its doc and each sentence under it,
 * so a pointer cannot outlive the section it names.
 */
export interface FixPointer {
  rule: string;
  /** The doc, from the kit's root. */
  doc: string;
  /** The heading of the section, as written (without its #s). */
  heading: string;
  /** The section's own words that say what passes. */
  says: string;
}

export const FIX_POINTERS: readonly FixPointer[] = [
  {
    rule: "ENV-04",
    doc: "docs/implementers.md",
    heading: "How your broker meets the simulated Lomi",
    says: "Serving `docs/catalogue.json`'s tool objects as they stand passes.",
  },
  { rule: "SCH-06", doc: "docs/implementers.md", heading: "Seeing the arguments as sent (SCH-06)", says: "Read the arguments below the SDK" },
  {
    rule: "EPOCH-02",
    doc: "docs/implementers.md",
    heading: "How your broker meets the simulated Lomi",
    says: 'Read "now" from the bridge (`/native/v1/clock`), not from its own clock',
  },
  {
    rule: "EPOCH-03",
    doc: "docs/implementers.md",
    heading: "How your broker meets the simulated Lomi",
    says: 'Read "now" from the bridge (`/native/v1/clock`), not from its own clock',
  },
  {
    rule: "DUR-07",
    doc: "docs/implementers.md",
    heading: "Fault hooks (optional)",
    says: "that second instance must exit non-zero with a message naming the store",
  },
  {
    rule: "OP-02",
    doc: "docs/native-bridge.md",
    heading: "Details brokers got wrong",
    says: 'The states an operation may move between are the table in `docs/catalogue.md` ("Operation states")',
  },
  { rule: "INPUT-03", doc: "docs/native-bridge.md", heading: "Ordered input", says: "Deduplicating by `leaseId` and `inputSequence` is the broker's job" },
];

/** The pointers of these rules, in the order the rules come. */
export const pointersOf = (rules: readonly string[]): FixPointer[] => rules.flatMap((id) => FIX_POINTERS.filter((p) => p.rule === id));

/** A pointer in one line: `ENV-04: docs/implementers.md, "How your broker meets the simulated Lomi": Serving …`. */
export const pointerText = (p: FixPointer) => `${p.rule}: ${p.doc}, "${p.heading}": ${p.says}`;
