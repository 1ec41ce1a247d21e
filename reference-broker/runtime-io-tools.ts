import type { NativeInputPayload } from "../protocol/native-bridge.js";
import { TERMINAL_READ_DEFAULT, terminalRead, type OrderedInputName, type RuntimeRef } from "../protocol/tools/input.js";
import type { BrokerCore } from "./broker.js";
import { canonicalJson, sha256Hex } from "./fingerprint.js";
import type { HandlerRegistry } from "./handler.js";

type RuntimeIoName = "lomi_terminal_read" | "lomi_lease_acquire" | OrderedInputName;
interface OrderedArgs {
  workspaceId: string;
  leaseId: string;
  inputSequence: string;
}

/**
 * The terminal and Android runtime tools that are not operations: terminal output, leases and ordered
 * input. Input is deduplicated here, by lease and inputSequence, and only new input reaches Lomi.
 */
export function runtimeIoHandlers(core: BrokerCore, pairing: () => Promise<string>): Pick<HandlerRegistry, RuntimeIoName> {
  async function ordered(tool: OrderedInputName, a: OrderedArgs, runtime: RuntimeRef, input: NativeInputPayload) {
    const pairingId = await pairing();
    const { workspaceId, leaseId, inputSequence } = a;
    // The exact payload: the same sequence with anything else in it is another input.
    const fingerprint = sha256Hex(canonicalJson({ tool, workspaceId, runtime, input }));
    const outcome = await core.inputs.submit(canonicalJson([pairingId, leaseId]), inputSequence, fingerprint, () =>
      core.native.input({ pairingId, tool, workspaceId, leaseId, runtime, inputSequence, input }),
    );
    return { leaseId, inputSequence, ...outcome };
  }

  return {
    lomi_terminal_read: async (a) => {
      const cursor = a.cursor === undefined ? 0 : Number(a.cursor);
      const query = { workspaceId: a.workspaceId, terminalSessionId: a.terminalSessionId, cursor, limit: a.limit ?? TERMINAL_READ_DEFAULT };
      return core.native.observe(await pairing(), { kind: "terminal-output", ...query }, terminalRead.data);
    },
    lomi_lease_acquire: async (a) => {
      const { leaseId } = await core.native.lease(await pairing(), a.workspaceId, a.runtime);
      return { leaseId, workspaceId: a.workspaceId, runtime: a.runtime, nextInputSequence: "1" };
    },
    lomi_terminal_input: async (a) => {
      const ack = await ordered("lomi_terminal_input", a, { kind: "terminal", terminalSessionId: a.terminalSessionId }, { kind: "text", text: a.text });
      return { ...ack, terminalSessionId: a.terminalSessionId };
    },
    lomi_terminal_interrupt: async (a) => {
      const ack = await ordered("lomi_terminal_interrupt", a, { kind: "terminal", terminalSessionId: a.terminalSessionId }, { kind: "interrupt" });
      return { ...ack, terminalSessionId: a.terminalSessionId, exitConfirmed: false };
    },
    lomi_android_input: async (a) => {
      const ack = await ordered("lomi_android_input", a, { kind: "android", panelId: a.panelId, generation: a.generation }, a.input);
      return { ...ack, panelId: a.panelId, generation: a.generation };
    },
  };
}
