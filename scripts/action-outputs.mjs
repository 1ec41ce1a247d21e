// The end of the GitHub Action's step (action.yml): the run's verdict and its reports' paths as the
// step's outputs ($GITHUB_OUTPUT), and its report in the job summary ($GITHUB_STEP_SUMMARY). Run as
// `node action-outputs.mjs REPORTS EXIT_CODE`; a run that wrote no report (it could not start) is
// said so in the summary, with verdict not-run.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

const [reports = "reports", code = "2"] = process.argv.slice(2);
const at = (file) => path.join(reports, file);
/** What the outputs read of conformance.json (harness/report/run-record.ts has the whole). */
const recordSchema = z.object({
  verdict: z.string(),
  title: z.string().optional(),
  headline: z.string(),
  evidence: z.object({ digest: z.string() }).optional(),
});
const read = (file) => {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined; // no report: the outputs say not-run
  }
};
const record = recordSchema.safeParse(read(at("conformance.json"))).data ?? {};
const oneLine = (text) => String(text ?? "").replace(/\s*\n\s*/g, " ");
const outputs = {
  verdict: record.verdict ?? "not-run",
  "exit-code": code,
  headline: oneLine(record.title ?? record.headline ?? `no report in ${reports}`),
  reports,
  "report-json": at("conformance.json"),
  "report-md": at("conformance.md"),
  "report-html": at("conformance.html"),
  junit: at("junit.xml"),
  badge: at("conformance.svg"),
  "evidence-digest": record.evidence?.digest ?? "",
};
if (process.env.GITHUB_OUTPUT)
  appendFileSync(
    process.env.GITHUB_OUTPUT,
    Object.entries(outputs)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
  );
if (process.env.GITHUB_STEP_SUMMARY) {
  const md = at("conformance.md");
  appendFileSync(
    process.env.GITHUB_STEP_SUMMARY,
    existsSync(md)
      ? `${readFileSync(md, "utf8")}\n`
      : `## Lomi conformance: NOT RUN\n\nThe run wrote no report in \`${reports}\` (exit ${code}); its log says why.\n`,
  );
}
