import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { z } from "zod";

/**
 * Runs a GitHub Actions workflow's steps as the runner would on Linux — each `run:` in
 * `bash --noprofile --norc -eo pipefail`, with the workflow's, the job's and the step's env, a step
 * after a failed one only when its `if:` says always() — so a CI recipe is tested as written. A step
 * that uses a composite action in the repository (`uses: ./node_modules/…`) runs that action's steps
 * the same way, its inputs from `with:` and their defaults, GITHUB_ACTION_PATH its folder; each step
 * with an `id` gets a GITHUB_OUTPUT file, read back as `steps.ID.outputs.NAME`. The recipe's other
 * `${{ }}` expressions and `if:` conditions are answered from tables the test gives: one this runner
 * does not know fails the test, rather than being guessed.
 */

const envSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]));
const stepSchema = z.object({
  name: z.string().optional(),
  id: z.string().optional(),
  uses: z.string().optional(),
  run: z.string().optional(),
  shell: z.string().optional(),
  if: z.string().optional(),
  env: envSchema.optional(),
  with: z.record(z.string(), z.unknown()).optional(),
});
/** A composite action's action.yml, as far as this runner runs it. */
const actionSchema = z.object({
  inputs: z.record(z.string(), z.object({ default: z.union([z.string(), z.number(), z.boolean()]).optional(), required: z.boolean().optional() })).default({}),
  outputs: z.record(z.string(), z.object({ value: z.string() })).default({}),
  runs: z.object({ using: z.literal("composite"), steps: z.array(stepSchema.extend({ shell: z.literal("bash").optional() })) }),
});
const workflowSchema = z.object({
  env: envSchema.default({}),
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
  /** What the step wrote to GITHUB_OUTPUT (a composite action: its outputs). */
  outputs: Record<string, string>;
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
export function loadWorkflow(
  file: string,
  name?: string,
): { env: Record<string, string>; steps: WorkflowStep[]; job: WorkflowJob; jobs: Record<string, WorkflowJob> } {
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

/** What a step wrote to its GITHUB_OUTPUT file: `name=value` lines, or `name<<DELIMITER` … `DELIMITER` for several. */
function readOutputs(file: string): Record<string, string> {
  const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n") : [];
  const outputs: Record<string, string> = {};
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`${file}: the output ${heredoc[1]} opens <<${heredoc[2]} and never closes it`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (lines[i]!.includes("=")) outputs[lines[i]!.slice(0, lines[i]!.indexOf("="))] = lines[i]!.slice(lines[i]!.indexOf("=") + 1);
  }
  return outputs;
}

/** The expressions a step's `${{ }}` may use: the test's, the env's (`env.X`), and each earlier step's outputs (`steps.ID.outputs.NAME`). */
function expressionsFor(
  context: WorkflowContext,
  env: Record<string, string>,
  outputs: ReadonlyMap<string, Record<string, string>>,
  more: Record<string, string> = {},
): Record<string, string> {
  const fromSteps = Object.fromEntries([...outputs].flatMap(([id, o]) => Object.entries(o).map(([k, v]) => [`steps.${id}.outputs.${k}`, v])));
  const fromEnv = Object.fromEntries(Object.entries(env).map(([k, v]) => [`env.${k}`, v]));
  return { ...context.expressions, ...fromEnv, ...fromSteps, ...more };
}

interface StepList {
  steps: WorkflowStep[];
  /** The env every step of the list gets (the workflow's and the job's, as the test edits them; an action's caller's). */
  env: Record<string, string>;
  /** Expressions only these steps answer (an action's `inputs.*`, `github.action_path`). */
  expressions?: Record<string, string>;
  /** Set for an action's steps: GITHUB_ACTION_PATH. */
  actionPath?: string;
}

/** Runs a list of steps (a job's, or a composite action's), each after the earlier ones as the runner does. */
async function runSteps(list: StepList, context: WorkflowContext, scratch: string): Promise<StepRun[]> {
  const runs: StepRun[] = [];
  const outputs = new Map<string, Record<string, string>>();
  let failed = false;
  for (const step of list.steps) {
    const label = step.name ?? step.uses ?? step.run ?? "?";
    const condition = step.if ?? "success()";
    const holds = condition === "success()" ? !failed : context.conditions(condition, failed);
    if (holds === undefined) throw new Error(`the workflow's step "${label}" runs if ${condition}, which this test does not answer: add it to the conditions`);
    if (!holds) {
      runs.push({ label, outcome: "skipped", code: null, output: "", outputs: {} });
      continue;
    }
    const expressions = expressionsFor(context, list.env, outputs, list.expressions);
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), expressions)]));
    if (step.uses?.startsWith("./")) {
      // A composite action of the repository: its steps, with its inputs, as one step of this list.
      const run = await runAction(path.join(context.cwd, step.uses), step, { ...list.env, ...stepEnv }, expressions, context, scratch);
      runs.push({ ...run, label });
      if (step.id) outputs.set(step.id, run.outputs);
      failed ||= run.outcome === "failure";
      continue;
    }
    if (step.uses !== undefined) {
      context.uses({
        ...step,
        with: Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, typeof v === "string" ? substitute(v, expressions) : v])),
      });
      runs.push({ label, outcome: "success", code: 0, output: "", outputs: {} });
      continue;
    }
    // A file of its own for each step run: mkdtemp names it, as the runner gives each step a new one.
    const outputFile = path.join(mkdtempSync(path.join(scratch, "step-")), "output");
    // Not spawnSync: a test's own servers (a registry that must not be asked) answer meanwhile.
    const child = spawn("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step.run ?? "", expressions)], {
      cwd: context.cwd,
      env: {
        ...process.env,
        ...context.env,
        ...list.env,
        ...stepEnv,
        GITHUB_OUTPUT: outputFile,
        ...(list.actionPath ? { GITHUB_ACTION_PATH: list.actionPath } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const [code] = (await once(child, "close")) as [number | null];
    const ok = code === 0;
    const written = readOutputs(outputFile);
    if (step.id) outputs.set(step.id, written);
    runs.push({ label, outcome: ok ? "success" : "failure", code, output, outputs: written });
    failed ||= !ok;
  }
  return runs;
}

/**
 * A composite action's steps run as one step of the caller's: inputs from `with:` (substituted) and
 * the action's defaults, a required one missing refused; its outputs from its steps' outputs; it
 * fails when one of its steps fails, its exit code the failed step's.
 */
async function runAction(
  dir: string,
  caller: WorkflowStep,
  env: Record<string, string>,
  callerExpressions: Record<string, string>,
  context: WorkflowContext,
  scratch: string,
): Promise<Omit<StepRun, "label">> {
  const action = actionSchema.parse(parse(readFileSync(path.join(dir, "action.yml"), "utf8")));
  const given = Object.fromEntries(Object.entries(caller.with ?? {}).map(([k, v]) => [k, substitute(String(v), callerExpressions)]));
  const unknown = Object.keys(given).filter((k) => !(k in action.inputs));
  if (unknown.length > 0) throw new Error(`the workflow gives ${dir} the inputs ${unknown.join(", ")}, which its action.yml does not declare`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, i]) => [`inputs.${k}`, given[k] ?? String(i.default ?? "")]));
  for (const [k, i] of Object.entries(action.inputs)) if (i.required && given[k] === undefined) throw new Error(`${dir}: the input ${k} is required`);
  const runs = await runSteps({ steps: action.runs.steps, env, expressions: { ...inputs, "github.action_path": dir }, actionPath: dir }, context, scratch);
  const byId = new Map(action.runs.steps.flatMap((s, i) => (s.id ? [[s.id, runs[i]!.outputs] as const] : [])));
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, expressionsFor(context, {}, byId))]));
  const failure = runs.find((r) => r.outcome === "failure");
  return { outcome: failure ? "failure" : "success", code: failure ? failure.code : 0, output: runs.map((r) => r.output).join(""), outputs };
}

export async function runWorkflow(file: string, context: WorkflowContext): Promise<StepRun[]> {
  const { env, steps } = loadWorkflow(file, context.job);
  const start = context.from === undefined ? 0 : steps.findIndex((s) => s.name === context.from);
  if (start < 0) throw new Error(`${file} has no step named ${context.from}`);
  return runSteps({ steps: steps.slice(start), env: { ...env, ...context.workflowEnv } }, context, mkdtempSync(path.join(os.tmpdir(), "lomi-workflow-")));
}
