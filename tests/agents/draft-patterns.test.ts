import { describe, expect, it } from "vitest";
import { abbreviations, proseParams } from "../../pipeline/agents/environment-builder/prose-params.js";
import { readConventions, readManualFunctions, type ManualInput } from "../../pipeline/agents/environment-builder/manual-functions.js";
import { draftTables, readStateTables } from "../../pipeline/agents/environment-builder/draft-tables.js";
import { draftOperations } from "../../pipeline/agents/environment-builder/draft-operations.js";
import { prose } from "../../pipeline/agents/environment-builder/effect-sentences.js";
import { outlineText } from "../../pipeline/sources/ingest.js";

/** Focused tests of the sentence and table patterns the deterministic drafter recognises (one pattern each). */

const manual = (text: string): ManualInput => ({ document: "m", file: "m.md", text, outline: outlineText(text) });
/** The operations drafted from one manual text (the deterministic strategy's steps, without a domain folder). */
function draft(text: string) {
  const m = manual(text);
  const functions = readManualFunctions([m]);
  const conventions = readConventions([m]);
  const set = draftTables(functions, conventions, "client");
  readStateTables(m.outline.sections.flatMap((s) => s.blocks.filter((b) => b.type === "table")), set);
  const review: Array<{ kind: string; subject: string }> = [];
  const ops = draftOperations(functions, set, conventions.minuteZero, review as never);
  const op = (n: string) => ops.find((o) => o.name === n)!;
  const pcs = (n: string) => op(n).preconditions.map(({ id: _i, message, ...shape }) => ({ message, ...shape }));
  return { ops, op, pcs, set, review };
}
const names = (ps: Array<{ name: string }> | null | undefined) => (ps ?? []).map((p) => p.name);

describe("prose parameters (a function without a parameter list)", () => {
  const abbr = new Map([["DAN", "deferment approval number"]]);

  it("reads an abbreviation the manual defines only when the initials spell it", () => {
    expect([...abbreviations("the deferment approval number (DAN) stated by the declarant; the cash deposit (HVD) and the box (XYZ)")]).toEqual([["DAN", "deferment approval number"]]);
  });

  it("reads a colon list, its enumerations and a shared source", () => {
    const r = proseParams("places a hold: kind (documentary or physical), document required (proof of origin, commercial invoice) and reason.", "", abbr, null);
    expect(r?.params.map((p) => [p.name, p.enum ?? null, p.source ?? null])).toEqual([
      ["kind", ["documentary", "physical"], null],
      ["document_required", null, null],
      ["reason", null, null],
    ]);
    const s = proseParams("records a deposit as security: the payment reference (HVD-) and the amount transferred, both as stated by the declarant from the bank's confirmation.", "", abbr, null);
    expect(s?.params.map((p) => [p.name, p.source])).toEqual([
      ["payment_reference", "customer"],
      ["amount_transferred", "customer"],
    ]);
  });

  it("reads a parenthesised list after the terms sent, expanding abbreviations", () => {
    expect(names(proseParams("sends the corrected terms (declaration, corrected commodity code, corrected customs value) to the portal.", "", abbr, null)?.params)).toEqual(["declaration", "corrected_commodity_code", "corrected_customs_value"]);
    expect(names(proseParams("asks the account holder to authorise one charge (declaration, DAN, exact amount); returns a proposal number.", "", abbr, null)?.params)).toEqual(["declaration", "deferment_approval_number", "amount"]);
    // A parenthesis of prose is not a list.
    expect(proseParams("books the examination (the report follows after about 60 minutes).", "", abbr, null)).toBeNull();
  });

  it("reads the names before 'must be exactly those', or the terms of the function that sent them", () => {
    const text = "makes the charge the account holder authorised; the declaration, DAN and amount must be exactly those authorised.";
    expect(names(proseParams("makes the charge the account holder authorised; the declaration, DAN and amount must be exactly those authorised.", text, abbr, null)?.params)).toEqual(["declaration", "deferment_approval_number", "amount"]);
    const before = [{ name: "declaration", exact: false, note: "" }, { name: "corrected_customs_value", exact: false, note: "" }];
    expect(names(proseParams("applies the amendment; the three terms must be exactly those the declarant approved.", "applies the amendment; the three terms must be exactly those the declarant approved.", abbr, before)?.params)).toEqual(["declaration", "corrected_customs_value"]);
    expect(proseParams("applies the amendment.", "applies the amendment; the three terms must be exactly those the declarant approved.", abbr, null)).toBeNull();
  });

  it("reads one reference named with 'with the …' or an abbreviation 'given'", () => {
    expect(names(proseParams("records a preference claim with the proof of origin reference; CCS applies the rate.", "", abbr, null)?.params)).toEqual(["proof_of_origin_reference"]);
    expect(names(proseParams("charges the duty of a lodged declaration to the DAN given, under the standing authority.", "", abbr, null)?.params)).toEqual(["deferment_approval_number"]);
    expect(proseParams("charges the duty to the account given.", "", abbr, null)).toBeNull();
  });

  it("gives a customer action of an Action | Used for table that approves a proposal the proposal id", () => {
    const fns = readManualFunctions([manual("# M\n\n## 9. Trader portal actions (declarant side)\n\n| Action | Used for |\n|---|---|\n| `approve_amendment` | The declarant approves the proposal |\n| `supply_document` | The declarant uploads a document |\n")]);
    expect(fns.map((f) => [f.name, f.side, names(f.params)])).toEqual([
      ["approve_amendment", "customer", ["proposal_id"]],
      ["supply_document", "customer", []],
    ]);
  });
});

describe("effect sentences", () => {
  it("keeps a quoted single value ('becomes \"declared\"') and drops quoted messages", () => {
    expect(prose('The storage item becomes "declared". Refused with "The goods are not here."').replace(/\s+/g, " ").trim()).toBe('The storage item becomes "declared". Refused with');
  });
});

const PAYMENTS = `# Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_payment\` | payment_id | amount, status |

## 2. Payments

### \`cancel_payment\`
Cancels a payment. Parameter: payment_id. Refusals: "Only a payment that has not been released can be cancelled."

### \`defer_payment\`
Moves a payment; status becomes scheduled. Parameter: payment_id. Refusals: "Only an unreleased payment due today can be moved."

### \`recall_payment\`
Recalls a payment. Parameter: payment_id. Refusals: "Only a released payment can be recalled."
`;

describe("refusal messages", () => {
  it("knows the states a later function names when it reads an earlier one (two passes)", () => {
    const d = draft(PAYMENTS);
    expect(d.pcs("cancel_payment")).toEqual([{ message: "Only a payment that has not been released can be cancelled.", in_state: "payments", where: { status: { not: "released" } } }]);
  });

  it("does not read 'not yet' when the message says more of the thing, and never makes a transition from a negated state", () => {
    const d = draft(PAYMENTS);
    expect(d.op("defer_payment").preconditions).toEqual([]);
    expect(d.op("defer_payment").transition).toBeUndefined();
    expect(d.op("defer_payment").effects).toEqual([{ update: "payments", set: { status: "scheduled" } }]);
  });
});
