#!/usr/bin/env node
// Runs the TypeScript entry point through tsx, so the kit needs no build step.
import { register } from "tsx/esm/api";

register();
const { runBrokerCli } = await import("../reference-broker/cli.ts");
await runBrokerCli();
