#!/usr/bin/env node
// Runs a mutant (mutants/run-mutant.ts), bundled or through tsx, as bin/lomi-broker.js runs the reference broker.
import { importEntry, MUTANT_BUNDLE } from "../bin/compiled.js";

const { runMutantCli } = await importEntry(MUTANT_BUNDLE.source, MUTANT_BUNDLE);
await runMutantCli();
