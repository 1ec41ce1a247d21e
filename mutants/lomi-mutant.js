#!/usr/bin/env node
// Runs a mutant (mutants/run-mutant.ts), compiled or through tsx, as bin/lomi-broker.js runs the reference broker.
import { importEntry } from "../bin/compiled.js";

await importEntry("mutants/run-mutant.ts");
