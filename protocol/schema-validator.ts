import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";

let validator: AjvJsonSchemaValidator | undefined;

/**
 * One JSON Schema validator for every MCP Client and Server of this process: each makes its own (a
 * new Ajv with its formats, about a millisecond of CPU) unless given one, and the harness connects
 * an in-process broker's Server to its Client once or more per scenario. A schema compiles the same
 * whichever connection asks for it.
 */
export const sharedSchemaValidator = (): AjvJsonSchemaValidator => (validator ??= new AjvJsonSchemaValidator());
