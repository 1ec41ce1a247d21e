#!/usr/bin/env node
import { importEntry } from "./compiled.js";

const { runBrokerCli } = await importEntry("reference-broker/cli.ts");
await runBrokerCli();
