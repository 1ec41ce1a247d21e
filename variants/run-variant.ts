import { runBrokerCli } from "../reference-broker/cli.js";
import { ALL_VARIANTS } from "./index.js";

/** lomi-variant NAME [lomi-broker options]: the reference broker with other legal choices, same options and environment. */
export function runVariantCli(): Promise<void> {
  const name = process.argv[2];
  const variant = ALL_VARIANTS.find((v) => v.name === name);
  if (!variant) {
    process.stderr.write(`lomi-variant: name one of:\n${ALL_VARIANTS.map((v) => `  ${v.name.padEnd(28)} ${v.difference}`).join("\n")}\n`);
    process.exit(2);
  }
  process.argv.splice(2, 1);
  process.stderr.write(`lomi-variant ${variant.name}: ${variant.difference}\n`);
  return runBrokerCli({ policy: variant.policy });
}
