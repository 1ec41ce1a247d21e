import type { CatalogueContract, ToolName } from "../protocol/catalogue.js";
import type { ImageBlock } from "../protocol/envelope.js";
import type { DataOf, InputOf, ToolContract } from "../protocol/tool-contract.js";

/** What a handler answers when its reply carries image blocks beside the envelope's data (a capture). */
export class WithImages<D = unknown> {
  constructor(
    readonly data: D,
    readonly images: ImageBlock[],
  ) {}
}

/** A tool's handler: its arguments already parsed by the contract's input schema, its answer the contract's data. */
export type HandlerOf<C extends ToolContract> = (args: InputOf<C>) => Promise<DataOf<C> | WithImages<DataOf<C>>>;

/** The tools a handler answers: every catalogue tool but the operations, which the engine admits. */
export type HandledContract = Exclude<CatalogueContract, { kind: "operation" }>;
export type HandledName = HandledContract["name"];

/** One handler per handled tool, each typed by its own contract. */
export type HandlerRegistry = { [C in HandledContract as C["name"]]: HandlerOf<C> };

/**
 * The broker's handlers, checked against the catalogue when compiling: a tool without a handler, a
 * handler for a tool the catalogue lacks (or for an operation), or an answer of the wrong shape is a
 * type error, whatever spreads the registry is built from.
 */
export function handlerRegistry<R extends HandlerRegistry>(handlers: R & Record<Exclude<keyof R, HandledName>, never>): HandlerRegistry {
  return handlers;
}

/** A tool's handler for a name the client sent: the one place a runtime name meets the typed registry. */
export function handlerFor(registry: HandlerRegistry, name: ToolName): ((args: unknown) => Promise<unknown>) | undefined {
  return (registry as Partial<Record<ToolName, (args: unknown) => Promise<unknown>>>)[name];
}
