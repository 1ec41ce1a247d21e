// A support file cucumber imports beside the step files, in the harness's own process and in each
// --parallel worker (cucumber forks them into the harness's process group). In a worker only:
//
// - SIGINT and SIGTERM are the run's to answer, not the worker's. Ctrl+C in a terminal, or a CI
//   runner's timeout, signals the whole group; a worker that died of it would end cucumber's run
//   under the harness's stop handler, and the run would conclude twice, the second time from a
//   stream cut short (every rule failed). The harness, which gets the same signal, writes the
//   reports of what finished and exits; the worker ends with it.
// - When the harness is gone (its IPC channel closes, or a message to it fails: EPIPE), the worker
//   exits at once, quietly: its exit hooks then kill the brokers it started, instead of each failing
//   on the closed channel with a stack trace after the run's verdict.

/** Whether this process is one of cucumber's parallel workers (run_worker.js sets these). */
const isWorker = process.env.CUCUMBER_PARALLEL === "true" && process.env.CUCUMBER_WORKER_ID !== undefined && process.send !== undefined;

if (isWorker) {
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => undefined);
  const coordinatorGone = () => process.exit(0);
  process.on("disconnect", coordinatorGone);
  // Cucumber sends without a callback: a send that fails is emitted on the process, as an error nothing else handles.
  process.on("error", coordinatorGone);
}
