// Loaded with --import into one lomi-conformance process by the bench: at exit it writes the CPU the
// process spent itself (the harness; over stdio the brokers are other processes) and what its reaped
// children spent (the brokers), to the file LOMI_BENCH_CPU_FILE names. Cucumber's workers inherit the
// flag and write nothing: the bench runs one worker, the main process.
import { readFileSync, writeFileSync } from "node:fs";

/** Linux's USER_HZ: /proc counts CPU time in hundredths of a second. */
const TICK_MS = 10;
const file = process.env.LOMI_BENCH_CPU_FILE;
if (file && process.env.CUCUMBER_WORKER_ID === undefined) {
  process.on("exit", () => {
    const self = process.cpuUsage();
    // Fields after the command's closing parenthesis: state is 3, cutime 16 and cstime 17 (proc(5)).
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    writeFileSync(file, JSON.stringify({ selfMs: (self.user + self.system) / 1000, childrenMs: (Number(fields[13]) + Number(fields[14])) * TICK_MS }));
  });
}
