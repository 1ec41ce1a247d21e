import { verifyRun } from "./verify-run.js";

/**
 * `lomi-conformance verify DIR`: 0 when every verdict of the run in DIR derives from its evidence
 * and every report says what the evidence gives; 1, naming each disagreement, when anything was
 * changed or disagrees. A folder that is not a run's reports, or one made by another kit, is exit 2.
 */
export function verifyCommand(dir: string, shownDir: string, write: (text: string) => void): number {
  const v = verifyRun(dir);
  if (v.disagreements.length === 0) {
    write(
      `lomi-conformance verify: VERIFIED: every verdict in ${shownDir} derives from its evidence (${v.scenarios} scenario(s), ${v.histories} histories judged again, ${v.streams} message stream(s)), and every report says so\n` +
        `lomi-conformance verify: ${v.title}\nlomi-conformance verify: evidence ${v.digest}\n`,
    );
    return 0;
  }
  write(
    `lomi-conformance verify: NOT VERIFIED: ${v.disagreements.length} disagreement(s) between ${shownDir} and its evidence:\n${v.disagreements.map((d) => `  ${d}\n`).join("")}`,
  );
  return 1;
}
