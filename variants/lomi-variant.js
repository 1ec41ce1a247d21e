#!/usr/bin/env node
// Runs a legal variant (variants/run-variant.ts), bundled or through tsx, as bin/lomi-broker.js runs the reference broker.
import { importEntry, VARIANT_BUNDLE } from "../bin/compiled.js";

const { runVariantCli } = await importEntry(VARIANT_BUNDLE.source, VARIANT_BUNDLE);
await runVariantCli();
