import { describe, expect, it } from "vitest";
import type { Param, WorldModel } from "../../pipeline/schemas/index.js";
import { buildScenario } from "../../pipeline/agents/task-designer/scenario.js";
import { paramsJsonSchema } from "../../pipeline/world/args.js";
import { inheritValueWords } from "../../pipeline/world/value-words.js";
import { valueIn } from "../../validation/probes/values.js";
import { domain } from "../validation/fixture.js";

const REASON: Param = { type: "string", description: "Reason for cancelling.", required: true, enum: ["client_request", "duplicate"], max_length: 200, source: "customer", labels: { client_request: "we asked for it", duplicate: "it was paid twice" } };
const OXYGEN: Param = { type: "number", description: "Dissolved oxygen measured on site.", required: true, max_length: 200, source: "customer", unit: "mg/L" };

/** The fixture domain with an operation taking the two customer parameters above. */
function ctxWith() {
  const base = domain();
  const op = { ...base.world.operations[0]!, name: "log_reading", params: { reason: REASON, do_mg_l: OXYGEN } };
  return { ...base, world: { ...base.world, operations: [...base.world.operations, op] } };
}

describe("value labels and units", () => {
  it("the customer states facts in the world's words, and a probe reads the values back", () => {
    const ctx = ctxWith();
    const facts = [
      { param: "reason", value: "client_request", description: REASON.description },
      { param: "do_mg_l", value: 6.5, description: OXYGEN.description },
    ];
    const s = buildScenario(ctx, { client_id: "CL-001", name: "Alder Freight" }, [], facts, []);
    const [reason, oxygen] = s.private_facts;
    expect(reason?.statement).toBe("The reason for cancelling? We asked for it.");
    expect(oxygen?.statement).toBe("The dissolved oxygen measured on site is 6.5 mg/L.");
    expect(valueIn(reason!.statement, REASON)).toBe("client_request");
    expect(valueIn("It was paid twice, I'm afraid.", REASON)).toBe("duplicate");
    expect(valueIn(oxygen!.statement, OXYGEN)).toBe(6.5);
    // A list of labelled values is read back in the order the customer said them.
    const list: Param = { ...REASON, type: "array", enum: undefined, items: { type: "string", enum: ["client_request", "duplicate"] } };
    expect(valueIn("It was paid twice and we asked for it.", list)).toEqual(["duplicate", "client_request"]);
  });

  it("fact names read as a customer says them: a question-like name with a colon, plurals by their head noun, no number before a numeric value; the probe reads each back", () => {
    const p = (type: Param["type"], description: string): Param => ({ type, description, required: true, max_length: 200, source: "customer" });
    const params: Record<string, Param> = {
      symptom_onset: p("string", "When the symptoms started (in the patient's words)."),
      vomiting_48h: p("string", "Any vomiting in the last 48 hours: yes | no."),
      pain_score: p("integer", "Pain score the patient gives, 0 (none) to 10."),
      exposure_days_ago: p("integer", "Days since the contact; -1 when there was none."),
      allergies: p("string", "Allergies."),
      country_of_origin: p("string", "Country of origin of the goods."),
    };
    const base = domain();
    const ctx = { ...base, world: { ...base.world, operations: [...base.world.operations, { ...base.world.operations[0]!, name: "record_answers", params }] } };
    const values: Record<string, string | number> = { symptom_onset: "Two days ago", vomiting_48h: "no", pain_score: 3, exposure_days_ago: -1, allergies: "Penicillin (rash)", country_of_origin: "TW" };
    const facts = Object.entries(values).map(([param, value]) => ({ param, value, description: params[param]!.description }));
    const s = buildScenario(ctx, { client_id: "CL-001", name: "Alder Freight" }, [], facts, []);
    expect(s.private_facts.map((f) => f.statement)).toEqual([
      "When the symptoms started: Two days ago.",
      "Any vomiting in the last 48 hours: no.",
      "The pain score is 3.",
      "The days since the contact is -1.",
      "The allergies are Penicillin (rash).",
      "The country of origin of the goods is TW.",
    ]);
    // The customer recognises a fact by the description's words, numbers included.
    expect(s.private_facts[1]!.disclose_when).toEqual(["vomiting 48h", "any vomiting in the last 48 hours"]);
    expect(s.private_facts.map((f) => valueIn(f.statement, params[f.param!]!))).toEqual(["Two days ago", "no", 3, -1, "Penicillin (rash)", "TW"]);
  });

  it("a parameter without words of its own takes those of the column of the same name; tool specs list them", () => {
    const base = domain().world;
    const table = { ...base.tables[0]!, columns: [...base.tables[0]!.columns, { name: "reason", type: "text" as const, nullable: true, hidden: true, description: "Why.", labels: { client_request: "we asked for it" } }, { name: "do_mg_l", type: "real" as const, nullable: true, hidden: false, description: "Oxygen.", unit: "mg/L" }] };
    const op = { ...base.operations[0]!, name: "log_reading", params: { reason: { ...REASON, labels: undefined }, do_mg_l: { ...OXYGEN, unit: undefined } } };
    const world: WorldModel = inheritValueWords({ ...base, tables: [table, ...base.tables.slice(1)], operations: [op] });
    expect(world.operations[0]?.params.reason?.labels).toEqual({ client_request: "we asked for it" });
    expect(world.operations[0]?.params.do_mg_l?.unit).toBe("mg/L");
    const spec = paramsJsonSchema(ctxWith().world.operations.at(-1)!.params) as { properties: Record<string, { description: string }> };
    expect(spec.properties.reason?.description).toBe('Reason for cancelling. Customers say: "we asked for it" for client_request; "it was paid twice" for duplicate.');
    expect(spec.properties.do_mg_l?.description).toBe("Dissolved oxygen measured on site. Unit: mg/L.");
  });
});
