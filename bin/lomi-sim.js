#!/usr/bin/env node
import { importEntry } from "./compiled.js";

await importEntry("simulator/cli.ts");
