import { contractOf } from "../protocol/catalogue.js";
import type { Mutant } from "./mutant.js";
import { sessionWrappingPicked } from "./rewriting-session.js";

export const schUnknownFieldsDropped: Mutant = {
  name: "sch-unknown-fields-dropped",
  family: "SCH",
  breaks: ["SCH-01", "SCH-02", "SCH-06", "SCH-33", "INPUT-07"],
  defect: "fields a tool does not declare are silently dropped instead of rejected (what a zod shape that strips does)",
  parts: {
    session: sessionWrappingPicked(
      ({ tool, args }) => {
        const known = contractOf(tool)?.input.shape;
        return known !== undefined && Object.keys(args).some((k) => !(k in known));
      },
      ({ call }, name, args) => {
        const known = contractOf(name)!.input.shape;
        return call(name, Object.fromEntries(Object.entries(args).filter(([k]) => k in known)));
      },
    ),
  },
};
