import { CATALOGUE } from "./catalogue.js";
import { CHECK } from "./check.js";
import { COMPARE } from "./compare.js";
import { COVERAGE } from "./coverage.js";
import { commandLabel } from "./parse-command-line.js";
import type { Command } from "./declaration.js";
import { EXPLORE } from "./explore.js";
import { LINT } from "./lint.js";
import { MERGE } from "./merge.js";
import { RECORD } from "./record.js";
import { RUN } from "./run.js";
import { STEPS } from "./steps.js";
import { TEETH } from "./teeth.js";
import { VERIFY } from "./verify.js";

/** The commands lomi-conformance takes after its name, in the order the main help lists them. */
export const COMMANDS: readonly Command[] = [STEPS, EXPLORE, CHECK, RECORD, CATALOGUE, COVERAGE, TEETH, LINT, MERGE, VERIFY, COMPARE];
export const COMMAND_NAMES: readonly string[] = COMMANDS.map((c) => c.name!);

/** The command a word names, if it names one. */
export const commandNamed = (word: string | undefined): Command | undefined => COMMANDS.find((c) => c.name === word);

/** Who declares an option (the run, then the commands): what a command that does not is told. */
export const optionOwners = (option: string): string[] => [RUN, ...COMMANDS].filter((c) => Object.hasOwn(c.options, option)).map(commandLabel);
