import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import { z } from "zod";

/**
 * Runs a GitHub Actions workflow's steps as the runner would on Linux — each `run:` in
 * `bash --noprofile --norc -eo pipefail`, with the workflow's, the job's and the step's env, a step
 * after a failed one only when its `if:` says always() — so a CI recipe is tested as written. The
 * recipe's `${{ }}` expressions and `if:` conditions are answered from tables the test gives: one
 * this runner does not know fails the test, rather than being guessed.
 */

const stepSchema = z.object({
  name: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  if: z.string().optional(),
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  with: z.record(z.string(), z.unknown()).optional(),
});
const workflowSchema = z.object({
  env: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).default({}),
  jobs: z.record(
    z.string(),
    z.object({
      env: z.record(z.string(), z.string()).default({}),
      needs: z.array(z.string()).optional(),
      if: z.string().optional(),
      strategy: z.object({ matrix: z.record(z.string(), z.array(z.union([z.string(), z.number()]))) }).optional(),
      steps: z.array(stepSchema),
    }),
  ),
});
export type WorkflowStep = z.infer<typeof stepSchema>;

export interface StepRun {
  label: string;
  /** skipped: its `if:` was false, or an earlier step failed and it does not run always(). */
  outcome: "success" | "failure" | "skipped";
  code: number | null;
  output: string;
}

export interface WorkflowContext {
  cwd: string;
  /** The environment the runner gives every step (GITHUB_STEP_SUMMARY, CI, …). */
  env: Record<string, string>;
  /** What the workflow's own env block is edited to, e.g. another BROKER_CMD. */
  workflowEnv?: Record<string, string>;
  /** `${{ expression }}` → its value for this event. */
  expressions: Record<string, string>;
  /** An `if:` condition → whether it holds for this event, the earlier steps having succeeded or not. */
  conditions: (condition: string, failed: boolean) => boolean | undefined;
  /** What a `uses:` step does here (checkout, setup-node: nothing; upload-artifact: note its path). */
  uses: (step: WorkflowStep) => void;
  /** Start at the step of this name (the install already done by an earlier run). */
  from?: string;
  /** The job to run, for a workflow of several (one matrix entry of it: its values are in `expressions`, e.g. "matrix.shard"). */
  job?: string;
}

export type WorkflowJob = z.infer<typeof workflowSchema>["jobs"][string];

/** A workflow's env and one job's steps: the only job, or the one named. */
export function loadWorkflow(file: string, name?: string): { env: Record<string, string>; steps: WorkflowStep[]; job: WorkflowJob; jobs: Record<string, WorkflowJob> } {
  const workflow = workflowSchema.parse(parse(readFileSync(file, "utf8")));
  const jobs = Object.values(workflow.jobs);
  if (name === undefined && jobs.length !== 1) throw new Error(`${file}: one job expected, found ${jobs.length}; name the job to run`);
  const job = name === undefined ? jobs[0]! : workflow.jobs[name];
  if (!job) throw new Error(`${file} has no job ${name}`);
  const env = Object.fromEntries(Object.entries({ ...workflow.env, ...job.env }).map(([k, v]) => [k, String(v)]));
  return { env, steps: job.steps, job, jobs: workflow.jobs };
}

function substitute(text: string, expressions: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    const value = expressions[expression];
    if (value === undefined) throw new Error(`the workflow uses \${{ ${expression} }}, which this test does not answer: add it to the expressions`);
    return value;
  });
}

export async function runWorkflow(file: string, context: WorkflowContext): Promise<StepRun[]> {
  const { env, steps } = loadWorkflow(file, context.job);
  const start = context.from === undefined ? 0 : steps.findIndex((s) => s.name === context.from);
  if (start < 0) throw new Error(`${file} has no step named ${context.from}`);
  const runs: StepRun[] = [];
  let failed = false;
  for (const step of steps.slice(start)) {
    const label = step.name ?? step.uses ?? step.run ?? "?";
    const condition = step.if ?? "success()";
    const holds = condition === "success()" ? !failed : context.conditions(condition, failed);
    if (holds === undefined) throw new Error(`the workflow's step "${label}" runs if ${condition}, which this test does not answer: add it to the conditions`);
    if (!holds) {
      runs.push({ label, outcome: "skipped", code: null, output: "" });
      continue;
    }
    if (step.uses !== undefined) {
      context.uses(step);
      runs.push({ label, outcome: "success", code: 0, output: "" });
      continue;
    }
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), context.expressions)]));
    // Not spawnSync: a test's own servers (a registry that must not be asked) answer meanwhile.
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step.run ?? "", context.expressions)], {
      cwd: context.cwd,
      env: { ...process.env, ...context.env, ...env, ...context.workflowEnv, ...stepEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const [code] = (await once(child, "close")) as [number | null];
    const ok = code === 0;
    runs.push({ label, outcome: ok ? "success" : "failure", code, output });
    failed ||= !ok;
  }
  return runs;
}
