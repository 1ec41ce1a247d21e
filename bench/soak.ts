import { parseArgs } from "node:util";
import { runSoak } from "./kill-soak.js";

// npm run soak -- [--kills N] [--clients N] [--seed N]: kill -9 a broker process under load, then check the ledger.
const { values } = parseArgs({
  options: { kills: { type: "string", default: "100" }, clients: { type: "string", default: "6" }, seed: { type: "string" } },
  strict: true,
});
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
const kills = Number(values.kills);
const clients = Number(values.clients);
for (const [name, n] of Object.entries({ seed, kills, clients })) {
  if (!Number.isInteger(n) || n < 0) {
    process.stderr.write(`soak: --${name} must be a non-negative integer\n`);
    process.exit(2);
  }
}
process.stdout.write(`soak: seed ${seed}, ${kills} kills, ${clients} clients (same seed, same kill schedule)\n`);
const started = Date.now();
const figures = await runSoak({ seed, kills, clients, log: (line) => process.stdout.write(`${line}\n`) });
const { problems, ...numbers } = figures;
process.stdout.write(`${JSON.stringify({ ...numbers, seconds: Math.round((Date.now() - started) / 1000) }, null, 2)}\n`);
for (const p of problems.slice(0, 20)) process.stdout.write(`problem: ${p}\n`);
const held = figures.doubleEffects + figures.lostReceipts + figures.unreadableOperationIds + figures.illegalTransitions + problems.length === 0;
process.stdout.write(held ? "soak: HELD: 0 double effects, 0 lost receipts, 0 unreadable operationIds, 0 illegal transitions\n" : "soak: BROKEN\n");
process.exit(held ? 0 : 1);
