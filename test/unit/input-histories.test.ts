import assert from "node:assert/strict";
import { test } from "node:test";
import { LomiError } from "../../protocol/errors.js";
import { InputHistories, RETAINED_INPUTS } from "../../reference-broker/input-histories.js";

/** A stand-in for Lomi that counts what it was sent. */
function lomi() {
  const sent: string[] = [];
  return { sent, send: (label: string) => async () => (sent.push(label), { dispatchId: `input-${sent.length}` }) };
}
const code = (c: string) => (e: unknown) => e instanceof LomiError && e.code === c;

test("the next sequence is sent once; the same sequence and payload acknowledge it without sending", async () => {
  const h = new InputHistories();
  const native = lomi();
  assert.deepEqual(await h.submit("lane", "1", "ls", native.send("ls")), { dispatchId: "input-1", acknowledged: "dispatched" });
  assert.deepEqual(await h.submit("lane", "1", "ls", native.send("ls again")), { dispatchId: "input-1", acknowledged: "prior-dispatch" });
  assert.deepEqual(native.sent, ["ls"]);
});

test("another payload under a used sequence, a gap and a sequence from the past are refused and send nothing", async () => {
  const h = new InputHistories();
  const native = lomi();
  await assert.rejects(h.submit("lane", "2", "a", native.send("a")), code("INPUT_SEQUENCE_GAP"));
  await h.submit("lane", "1", "a", native.send("a"));
  await h.submit("lane", "2", "b", native.send("b"));
  await assert.rejects(h.submit("lane", "2", "c", native.send("c")), code("INPUT_SEQUENCE_CONFLICT"));
  await assert.rejects(h.submit("lane", "1", "c", native.send("c")), code("INPUT_SEQUENCE_CONFLICT"));
  assert.deepEqual(native.sent, ["a", "b"]);
});

test("identical inputs at the same moment are sent once", async () => {
  const h = new InputHistories();
  const native = lomi();
  const [a, b] = await Promise.all([h.submit("lane", "1", "x", native.send("x")), h.submit("lane", "1", "x", native.send("x"))]);
  assert.deepEqual([a.acknowledged, b.acknowledged].sort(), ["dispatched", "prior-dispatch"]);
  assert.deepEqual(native.sent, ["x"]);
});

test("a refusal leaves the sequence free; a lost reply takes it for good", async () => {
  const h = new InputHistories();
  const refuse = async () => {
    throw new LomiError("LEASE_EXPIRED", "expired");
  };
  const lose = async () => {
    throw new LomiError("NATIVE_UNAVAILABLE", "no answer");
  };
  await assert.rejects(h.submit("lane", "1", "x", refuse), code("LEASE_EXPIRED"));
  await assert.rejects(h.submit("lane", "1", "x", lose), code("NATIVE_UNAVAILABLE"));
  const native = lomi();
  await assert.rejects(h.submit("lane", "1", "x", native.send("x")), code("NATIVE_UNAVAILABLE"));
  await h.submit("lane", "2", "y", native.send("y"));
  assert.deepEqual(native.sent, ["y"]);
});

test("a lease keeps the last inputs; one older than that is from the past", async () => {
  const h = new InputHistories();
  const native = lomi();
  for (let i = 1; i <= RETAINED_INPUTS + 1; i++) await h.submit("lane", String(i), `p${i}`, native.send(`p${i}`));
  await assert.rejects(h.submit("lane", "1", "p1", native.send("p1")), code("INPUT_SEQUENCE_CONFLICT"));
  assert.equal((await h.submit("lane", "2", "p2", native.send("p2"))).acknowledged, "prior-dispatch");
  assert.equal(native.sent.length, RETAINED_INPUTS + 1);
});

test("each lease has its own sequence", async () => {
  const h = new InputHistories();
  const native = lomi();
  await h.submit("one", "1", "a", native.send("a"));
  assert.equal((await h.submit("two", "1", "a", native.send("a"))).acknowledged, "dispatched");
  assert.deepEqual(native.sent, ["a", "a"]);
});
