import { describe, expect, it } from "vitest";
import { Bindings } from "../../validation/probes/bindings.js";
import type { AgentView } from "../../validation/probes/visible-world.js";

const view = { customerKey: "importer_id" } as AgentView;
const holds = [
  { hold_id: "H-26-00151", declaration_id: "DEC-26-004151", hold_type: "documentary", required_document: "commercial_invoice", status: "open" },
  { hold_id: "H-26-00152", declaration_id: "DEC-26-004151", hold_type: "physical", required_document: null, status: "open" },
];

describe("a probe reading a list result", () => {
  it("binds the one row the procedure's words name (the open physical hold), and nothing when the words do not decide", () => {
    const physical = new Bindings();
    physical.state.set("declaration_id", "DEC-26-004151");
    physical.absorb(holds, view, "Carry out a physical examination List the holds of the declaration with `list_holds` and identify the open physical hold.");
    expect(physical.state.get("hold_id")).toBe("H-26-00152");

    const documentary = new Bindings();
    documentary.state.set("declaration_id", "DEC-26-004151");
    documentary.absorb(holds, view, "Carry out a documentary check List the holds of the declaration with `list_holds` and note the document required (HI-3.1).");
    expect(documentary.state.get("hold_id")).toBe("H-26-00151");

    // "open" names both rows: no row is singled out, so nothing is bound from the list.
    const undecided = new Bindings();
    undecided.state.set("declaration_id", "DEC-26-004151");
    undecided.absorb(holds, view, "List the open holds with `list_holds`.");
    expect(undecided.state.has("hold_id")).toBe(false);
  });
});
