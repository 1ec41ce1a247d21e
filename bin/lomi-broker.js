#!/usr/bin/env node
import { BROKER_BUNDLE, importEntry } from "./compiled.js";

const { runBrokerCli } = await importEntry(BROKER_BUNDLE.source, BROKER_BUNDLE);
await runBrokerCli();
