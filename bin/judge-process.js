#!/usr/bin/env node
// A judging process (harness/commands/judge-process.ts), compiled or through tsx as the bins run theirs:
// harness/run/judges.ts starts it, from the build or from the sources alike.
import { importEntry } from "./compiled.js";

await importEntry("harness/commands/judge-process.ts");
