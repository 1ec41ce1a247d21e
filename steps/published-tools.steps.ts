import { Then } from "@cucumber/cucumber";
import { violation } from "../harness/harness-error.js";
import { publishedToolsFinding, type ListedTool } from "../harness/contract-checks/published-tools.js";
import type { LomiWorld } from "./world.js";

// ENV-04: tools/list is what an agent and its client validate replies by; a generic output schema or
// a wrong hint misleads them even when every reply is right.
Then("every tool in tools\\/list publishes the catalogue's output schema and annotations", async function (this: LomiWorld) {
  const { tools } = await (await this.connection("agent")).listTools();
  const finding = publishedToolsFinding(tools as ListedTool[]);
  if (finding !== undefined) throw violation(finding, ["ENV-04"]);
});
