import type { Mutant } from "./mutant.js";
import { storeRecordingMovesAs } from "./rewriting-store.js";
import { storeReachedBy } from "./wrapped-store.js";

/** The HTTP status of the page a browser open or navigation loaded, from Lomi's result. */
function statusOf(tool: string, result: Record<string, unknown> | null | undefined): number | undefined {
  const page =
    tool === "lomi_browser_open" ? (result?.page as Record<string, unknown> | null | undefined) : tool === "lomi_browser_navigate" ? result : undefined;
  return typeof page?.httpStatus === "number" ? page.httpStatus : undefined;
}

export const opErrorPageAsFailure: Mutant = {
  name: "op-error-page-as-failure",
  family: "OP",
  breaks: ["OP-21"],
  defect: "a browser open or navigation whose page loaded with an HTTP error status (a 404 page) is recorded failed, though the page loaded",
  parts: {
    openStore: storeReachedBy(
      // The receipts it rewrites are made by browser opens and navigations, which reach every later move of theirs.
      ({ tool }) => tool === "lomi_browser_open" || tool === "lomi_browser_navigate",
      storeRecordingMovesAs((r, step) => {
        const status = step.to === "succeeded" ? statusOf(r.tool, step.fields.result) : undefined;
        if (status === undefined || status < 400) return step;
        return { to: "failed", fields: { ...step.fields, error: { code: "NATIVE_FAILURE", message: `The page answered HTTP ${status}.` } } };
      }),
    ),
  },
};
