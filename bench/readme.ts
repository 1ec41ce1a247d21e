// npm run bench:readme: rewrites the README's Benchmarks table from the last reports/bench.json, measuring nothing.
import { updateReadme } from "./readme-section.js";
import { BENCH_JSON, readBenchReport } from "./report.js";

updateReadme(readBenchReport());
process.stdout.write(`README.md: Benchmarks section rewritten from ${BENCH_JSON}\n`);
