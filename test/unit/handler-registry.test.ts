import assert from "node:assert/strict";
import { test } from "node:test";
import { CATALOGUE } from "../../protocol/catalogue.js";
import { handlerRegistry, type HandlerRegistry } from "../../reference-broker/handler.js";

/** A handler for every non-operation tool of the catalogue, each answering nothing. */
const stubs = Object.fromEntries(
  CATALOGUE.filter((c) => c.kind !== "operation").map((c) => [c.name, () => Promise.reject(new Error(`${c.name} is a stub`))]),
) as unknown as HandlerRegistry;

test("the broker's handler registry is checked against the catalogue when compiling (npm run typecheck fails on an unused @ts-expect-error)", () => {
  const { lomi_store_status: _dropped, ...withoutOne } = stubs;
  // @ts-expect-error lomi_store_status has no handler
  handlerRegistry(withoutOne);
  // @ts-expect-error lomi_nonsense is no tool of the catalogue
  handlerRegistry({ ...stubs, lomi_nonsense: async () => ({}) });
  // @ts-expect-error an operation is admitted by the engine, never by a handler
  handlerRegistry({ ...stubs, lomi_terminal_run: stubs.lomi_store_status });
  // @ts-expect-error lomi_store_status answers its contract's data, not a bare count
  handlerRegistry({ ...stubs, lomi_store_status: async () => ({ receipts: 1 }) });
  handlerRegistry({
    ...stubs,
    // @ts-expect-error a handler receives its own tool's arguments: lomi_connect takes no retryEpoch
    lomi_connect: async (a) => ({ ...(await stubs.lomi_connect(a)), retryEpoch: a.retryEpoch }),
  });
  assert.equal(handlerRegistry(stubs), stubs);
});

test("every non-operation tool of the catalogue has a key in a complete registry, and no operation has one", () => {
  const handled = new Set(Object.keys(stubs));
  for (const c of CATALOGUE) assert.equal(handled.has(c.name), c.kind !== "operation", c.name);
});
