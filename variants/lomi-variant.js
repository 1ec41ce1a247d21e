#!/usr/bin/env node
// Runs a legal variant (variants/run-variant.ts) through tsx, like bin/lomi-broker.js runs the reference broker.
import { register } from "tsx/esm/api";

register();
await import("./run-variant.ts");
