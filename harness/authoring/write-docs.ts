import { writeFileSync } from "node:fs";
import { kitPath } from "../../protocol/kit-root.js";
import { lintSuite, lintText } from "./lint.js";
import { generatedDocs } from "./spec-doc.js";

// `npm run spec`: writes the docs generated from the rules, decisions and world. It refuses what lint
// refuses: a made-up source quote or a dangling citation must not reach docs/spec.md.
const problems = await lintSuite(undefined, { generated: false });
if (problems.length > 0) {
  process.stderr.write(`${lintText(problems)}\nnpm run spec: ${problems.length} problem(s); nothing written\n`);
  process.exit(2);
}
for (const d of generatedDocs()) {
  writeFileSync(kitPath(d.file), d.text);
  process.stdout.write(`wrote ${d.file}\n`);
}
