#!/usr/bin/env node
// Runs a mutant (mutants/run-mutant.ts) through tsx, like bin/lomi-broker.js runs the reference broker.
import { register } from "tsx/esm/api";

register();
await import("./run-mutant.ts");
