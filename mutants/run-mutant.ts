import { runBrokerCli } from "../reference-broker/cli.js";
import { ALL_MUTANTS } from "./index.js";

/** lomi-mutant NAME [lomi-broker options]: the reference broker with one defect, same options and environment. */
export function runMutantCli(): Promise<void> {
  const name = process.argv[2];
  const mutant = ALL_MUTANTS.find((m) => m.name === name);
  if (!mutant) {
    process.stderr.write(`lomi-mutant: name one of:\n${ALL_MUTANTS.map((m) => `  ${m.name.padEnd(36)} ${m.family}: ${m.defect}`).join("\n")}\n`);
    process.exit(2);
  }
  process.argv.splice(2, 1);
  process.stderr.write(`lomi-mutant ${mutant.name} (${mutant.family}): ${mutant.defect}\n`);
  return runBrokerCli(mutant.parts);
}
