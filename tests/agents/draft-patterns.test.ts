import { describe, expect, it } from "vitest";
import { abbreviations, proseParams } from "../../pipeline/agents/environment-builder/prose-params.js";
import { readConventions, readManualFunctions, type ManualInput } from "../../pipeline/agents/environment-builder/manual-functions.js";
import { draftTables, readStateTables } from "../../pipeline/agents/environment-builder/draft-tables.js";
import { draftOperations } from "../../pipeline/agents/environment-builder/draft-operations.js";
import { clearedBy, prose } from "../../pipeline/agents/environment-builder/effect-sentences.js";
import { outlineText } from "../../pipeline/sources/ingest.js";
import { columnsWritten } from "../../bench/draft-compare.js";
import { sameWord } from "../../pipeline/agents/environment-builder/text.js";

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

const WORKSHOP = `# Workshop Manual

## 1. Conventions

- **W-1.1** Times are minutes of the day: minute 0 is 08:00.

## 2. Status values

| Field | Values |
|---|---|
| Job status | queued, on_the_bench, finished |
| Priority | routine, urgent |
| Outcome | repair-engine, repair-body, scrap |

## 3. Actions

#### \`get_job\`
Read one job. Parameters: job_id (string): job number. Returns: job_id, status, priority, outcome, checked_at, notes_recorded, review_due_by.

#### \`get_readings\`
List the readings of a job. Parameters: job_id (string): job number. Returns a list of: reading_id, taken_at, value.

#### \`get_supplier\`
Read one supplier. Parameters: supplier_id (string): supplier number. Returns: supplier_id, name, status (active or blocked).

#### \`finish_job\`
Finish a job. Parameters: job_id (string): job number.

- \`fresh\`: A finish needs readings no older than 20 minutes; take readings first.
- \`review\`: A review of the job is pending; review it first.
- \`notes\`: Record the notes before finishing.
- \`state\`: Only a checked job that is still on the bench can be finished.
- \`outcome\`: There is no workshop outcome to repair this job.
- \`priority\`: The bay takes only jobs on urgent priority.
- \`clock\`: The 17:30 closing time has passed; come back tomorrow.
- \`opens\`: The bay has not yet opened: it opens at 08:30.
- \`compound\`: The notes must be recorded and the job must not be scrapped.

#### \`order_part\`
Order a part for a job. Parameters: job_id (string): job number; supplier_id (string): supplier number.

- \`supplier\`: The supplier is blocked.
`;

describe("state, recency, flag, value and clock refusals", () => {
  const d = draft(WORKSHOP);
  const byId = (op: string, id: string) => {
    const p = d.op(op).preconditions.find((x) => x.id === id);
    if (!p) return undefined;
    const { id: _i, message: _m, ...shape } = p;
    return shape;
  };

  it("reads a list enquiry keyed by another thing as a table of its own (get_readings of a job)", () => {
    expect(d.set.tables.map((t) => [t.name, t.key])).toEqual([
      ["jobs", "job_id"],
      ["readings", "reading_id"],
      ["suppliers", "supplier_id"],
    ]);
  });

  it("recent rows of another table: 'readings no older than 20 minutes'", () => {
    expect(byId("finish_job", "fresh")).toEqual({ sql: "SELECT EXISTS (SELECT 1 FROM readings WHERE job_id = :job_id AND taken_at >= :now - 20)" });
  });

  it("something pending: its due time is empty", () => {
    expect(byId("finish_job", "review")).toEqual({ in_state: "jobs", where: { review_due_by: null } });
  });

  it("a flag of what has been recorded", () => {
    expect(byId("finish_job", "notes")).toEqual({ in_state: "jobs", where: { notes_recorded: 1 } });
  });

  it("'Only a checked job that is still on the bench': the state the clause names and the participle's time", () => {
    expect(byId("finish_job", "state")).toEqual({ in_state: "jobs", where: { status: "on_the_bench", checked_at: { not: null } } });
  });

  it("values of a Field | Values column: 'no … outcome to repair', 'only jobs on urgent priority'", () => {
    expect(byId("finish_job", "outcome")).toEqual({ in_state: "jobs", where: { outcome: ["repair-engine", "repair-body"] } });
    expect(byId("finish_job", "priority")).toEqual({ in_state: "jobs", where: { priority: "urgent" } });
  });

  it("clock times: 'the 17:30 … has passed', 'has not yet opened: it opens at 08:30'", () => {
    expect(byId("finish_job", "clock")).toEqual({ sql: "SELECT :now < 570" });
    expect(byId("finish_job", "opens")).toEqual({ sql: "SELECT :now >= 30" });
  });

  it("'The supplier is blocked': the other thing's row, by the call's key, is not in that state", () => {
    expect(byId("order_part", "supplier")).toEqual({ in_state: "suppliers", where: { status: { not: "blocked" } } });
  });

  it("leaves a message that joins a second condition to review", () => {
    expect(byId("finish_job", "compound")).toBeUndefined();
    expect(d.review.filter((r) => r.kind === "precondition").map((r) => r.subject)).toEqual(["operation finish_job"]);
  });
});

describe("Message | Cause tables", () => {
  it("give a message to the functions its own words name, not those its Cause names as the remedy", () => {
    const fns = readManualFunctions([
      manual(`# M

## 6. Securing

\`charge_account\` — charges the fee of a job to the account given.
\`record_cash_payment\` — records a cash payment.

| Message | Cause |
|---|---|
| The account is suspended | Take a cash payment |
| A cash payment must equal the fee | Exact amount |
`),
    ]);
    expect(fns.map((f) => [f.name, f.refusals.map((r) => r.message)])).toEqual([
      ["charge_account", ["The account is suspended"]],
      ["record_cash_payment", ["A cash payment must equal the fee"]],
    ]);
  });
});

const CLINIC = `# Clinic Manual

## 1. Conventions

- Identifiers: patient PAT-nnnn; visit VIS-nnnnn.

## 2. Actions

#### \`get_patient\`
Read one patient. Parameters: patient_id (string): patient number. Returns: patient_id, name.

#### \`get_visit\`
Read one visit. Parameters: visit_id (string): visit number. Returns: visit_id, patient_id, reason, status, history_allergies.

#### \`book_visit\`
Book a visit for a patient. Parameters: patient_id (string): patient number; reason (string): why. Returns: visit_id, patient_id, status.

#### \`record_history\`
Record what the patient tells. Parameters: visit_id (string): visit number; allergies (string): allergies as told; reason (string): why. Returns: visit_id, history_allergies, reason.

#### \`note_call\`
Note a call. Parameters: patient_id (string): patient number. Returns: call_id.
`;

describe("rows a function creates", () => {
  it("drafts the INSERT of the thing whose key it returns, with its reference format and the parameters it has as columns", () => {
    const d = draft(CLINIC);
    expect(d.op("book_visit").effects).toEqual([{ insert: "visits", values: { visit_id: { key: "VIS-{call:5}" }, patient_id: ":patient_id", reason: ":reason" } }]);
    expect(d.review.filter((r) => r.kind === "effect").map((r) => r.subject)).toEqual(["operation book_visit", "operation note_call"]);
  });

  it("keeps what a function records in the row's `<x>_<param>` column it returns (not a column that merely echoes the parameter)", () => {
    const d = draft(CLINIC);
    expect(d.op("record_history").effects).toEqual([{ update: "visits", set: { history_allergies: ":allergies" } }]);
  });

  it("drafts no INSERT when no table has the returned key", () => {
    expect(draft(CLINIC).op("note_call").effects).toEqual([]);
  });
});

describe("bench/draft-compare columnsWritten", () => {
  it("ends an UPDATE's SET list at its own WHERE, not at one inside a subquery", () => {
    expect(columnsWritten("UPDATE d SET a = (SELECT x FROM t WHERE t.k = d.k), status = 'lodged', n = n + 1 WHERE id = :id")).toEqual(["d.a", "d.status", "d.n"]);
    expect(columnsWritten("UPDATE d SET a = 1, b = 2")).toEqual(["d.a", "d.b"]);
    expect(columnsWritten("INSERT INTO h (k, v) SELECT 1, 2")).toEqual(["h.k", "h.v"]);
  });
});

const DEPOT = `# Depot Manual

## 1. Status values

| Field | Values |
|---|---|
| Order status | open, shipped |
| Claim status | approved, rejected |

## 2. Actions

#### \`get_order\`
Read one order. Parameters: order_id (string): order number. Returns: order_id, status.

#### \`list_parcels\`
Parameters: order_id (string): order number. Returns: parcels with weight and status.

#### \`list_claims\`
Parameters: order_id (string): order number. Returns a list of: claim_id, status.

#### \`ship_order\`
Ship an order. Parameters: order_id (string): order number.

- \`parcels_sealed\`: A parcel on the order is not sealed; seal it first.
- \`no_claim\`: The order already has an approved claim.
`;

describe("rows of another table that belong to this row", () => {
  const d = draft(DEPOT);
  it("a list_ function's owner key is a column of the things it lists (even when its Returns does not say 'list')", () => {
    expect(d.set.tables.find((t) => t.name === "parcels")!.columns.map((c) => c.name)).toEqual(["parcel_id", "weight", "status", "order_id"]);
  });

  it("'A parcel on the order is not sealed': none of them in another state", () => {
    expect(d.pcs("ship_order")[0]).toEqual({ message: "A parcel on the order is not sealed; seal it first.", sql: "SELECT NOT EXISTS (SELECT 1 FROM parcels WHERE order_id = :order_id AND status != 'sealed')" });
  });

  it("'The order already has an approved claim': none of them in that state", () => {
    expect(d.pcs("ship_order")[1]).toEqual({ message: "The order already has an approved claim.", sql: "SELECT NOT EXISTS (SELECT 1 FROM claims WHERE order_id = :order_id AND status = 'approved')" });
  });
});

const WARD = `# Ward Manual

## 1. Status values

| Field | Values |
|---|---|
| Stay status | waiting, on_ward, discharged, transferred |

## 2. Actions

#### \`get_patient\`
Read a patient. Parameters: patient_id (string): patient number. Returns: patient_id, name.

#### \`get_stay\`
Read a stay. Parameters: stay_id (string): stay number. Returns: stay_id, patient_id, status.

#### \`open_stay\`
Open a stay for a patient. Parameters: patient_id (string): patient number.

- \`no_open_stay\`: The patient already has an open stay.

#### \`note_stay\`
Note something on a stay. Parameters: stay_id (string): stay number.

- \`stay_open\`: The stay is not open (the patient has left).

#### \`discharge_stay\`
Discharge the patient; closes the stay. Parameters: stay_id (string): stay number.

#### \`transfer_stay\`
Transfer the patient; closes the stay. Parameters: stay_id (string): stay number.
`;

describe("open and closed rows", () => {
  it("'is not open' / 'already has an open …': not in a state a function closes the row in", () => {
    const d = draft(WARD);
    expect(d.pcs("note_stay")).toEqual([{ message: "The stay is not open (the patient has left).", in_state: "stays", where: { status: { not: ["discharged", "transferred"] } } }]);
    expect(d.pcs("open_stay")).toEqual([{ message: "The patient already has an open stay.", sql: "SELECT NOT EXISTS (SELECT 1 FROM stays WHERE patient_id = :patient_id AND status NOT IN ('discharged', 'transferred'))" }]);
  });

  it("no 'open' without a function that closes the row", () => {
    const d = draft(WARD.replace(/; closes the stay/g, ""));
    expect(d.pcs("note_stay")).toEqual([]);
  });
});

describe("messages named by another function's", () => {
  it("'(the expiry one reads \"…\")' replaces the message that shares its words when none has the word", () => {
    const fns = readManualFunctions([
      manual(`# M

### \`propose_booking\`
Sends a quote. Parameters: quote_id. Refusals:
- "The quote is no longer open (quotes last 30 minutes)."
- "The amount must be exactly that of the quote."

### \`book_quote\`
Books a quote. Parameters: quote_id. Refusals: the two messages of \`propose_booking\` (the expiry one reads "The quote has expired or is no longer open.").
`),
    ]);
    expect(fns.find((f) => f.name === "book_quote")!.refusals.map((r) => r.message)).toEqual(["The quote has expired or is no longer open.", "The amount must be exactly that of the quote."]);
  });
});

const MOVES = `# Moves Manual

## 1. Status values

| Field | Values |
|---|---|
| Plan | stay, move:DEPOT, scrap |

## 2. Actions

#### \`get_crate\`
Read a crate. Parameters: crate_id (string): crate number. Returns: crate_id, plan, shelf_id.

#### \`get_shelf\`
Read a shelf. Parameters: shelf_id (string): shelf code. Returns: shelf_id, status.

#### \`move_crate\`
Move a crate to another depot. Parameters: crate_id (string): crate number; target_depot (string): depot code.

- \`planned\`: The plan for this crate is not a move to this depot.

#### \`lookup_label\`
Look a label up. Parameters: label_code (string): label code. Returns: label_code, text, status (current or withdrawn).

#### \`label_crate\`
Label a crate. Parameters: crate_id (string): crate number; new_label_code (string): label code.

- \`current_label\`: The label code is not a line of the current label list.

#### \`tag_crate\`
Tag a crate. Parameters: crate_id (string): crate number.

- \`not_shelved\`: The crate is already in a shelf; tag it there.
`;

describe("template values and keys of another thing", () => {
  const d = draft(MOVES);
  it("'is not a move to this depot': the value move:DEPOT with the call's depot parameter", () => {
    expect(d.pcs("move_crate")).toEqual([{ message: "The plan for this crate is not a move to this depot.", sql: "SELECT COUNT(*) = 1 FROM crates WHERE crate_id = :crate_id AND plan = 'move:' || :target_depot" }]);
  });

  it("'The label code is not a line of the current label list': the parameter keys a row of that thing in that state", () => {
    expect(d.pcs("label_crate")).toEqual([{ message: "The label code is not a line of the current label list.", in_state: "labels", param: "new_label_code", where: { status: "current" } }]);
  });

  it("'is already in a shelf': the row's key of that thing is empty", () => {
    expect(d.pcs("tag_crate")).toEqual([{ message: "The crate is already in a shelf; tag it there.", in_state: "crates", where: { shelf_id: null } }]);
  });
});

const YARD = `# Yard Manual

## 1. Conventions

- Identifiers: bay B-nn; inspection set INS-nnnn; complaint CMP-nnn.

## 2. Status values

| Field | Values |
|---|---|
| Bay status | free, taken, cleaning |

## 3. Actions

#### \`get_bay\`
Read a bay. Parameters: bay_id (string): loading space code. Returns: bay_id, status.

#### \`get_inspections\`
List the inspections of a bay. Parameters: bay_id (string): loading space code. Returns a list of: inspection_id, bay_id, done_at.

#### \`record_inspection\`
Record an inspection of a bay. Parameters: bay_id (string): loading space code. Returns: inspection_id, done_at.

#### \`raise_complaint\`
Raise a complaint about a bay. Parameters: bay_id (string): loading space code; text (string): what happened. Returns: complaint_id, bay_id, raised_at, text.

#### \`get_lorry\`
Read a lorry. Parameters: lorry_id (string): lorry plate. Returns: lorry_id, bay_id, check_status.

#### \`park_lorry\`
Park a lorry in a bay. Parameters: lorry_id (string): lorry plate; bay_id (string): loading space code. Returns: lorry_id, bay_id.

#### \`request_check\`
Asks for a check of a lorry. Parameters: lorry_id (string): lorry plate. The result is recorded 20 minutes after the request (check status changes from asked to done).

#### \`release_bay\`
Release a loading space after its lorry has left; the space goes to cleaning. Parameters: bay_id (string): loading space code.

#### \`move_lorry\`
Move a lorry to a bay (the bay it leaves goes to cleaning; it goes to cleaning too). Parameters: bay_id (string): loading space code.
`;

describe("formats and states of rows named in other words", () => {
  const d = draft(YARD);
  it("'inspection set INS-nnnn' is the format of inspections when no thing is named 'inspection set'", () => {
    expect(d.op("record_inspection").effects).toEqual([{ insert: "inspections", values: { inspection_id: { key: "INS-{call:4}" }, bay_id: ":bay_id" } }]);
  });

  it("a write function returning first the key of a thing the conventions give a format for creates that thing's rows", () => {
    expect(d.set.tables.find((t) => t.name === "complaints")?.columns.map((c) => c.name)).toEqual(["complaint_id", "bay_id", "raised_at", "text"]);
    expect(d.op("raise_complaint").effects).toEqual([{ insert: "complaints", values: { complaint_id: { key: "CMP-{call:3}" }, bay_id: ":bay_id", text: ":text" } }]);
  });

  it("a parameter keying another thing that the call returns as the row's column: the row now references it", () => {
    expect(d.op("park_lorry").effects).toEqual([{ update: "lorries", set: { bay_id: ":bay_id" } }]);
  });

  it("'N minutes after the request (check status changes from asked to done)': the call leaves the column in the first state", () => {
    expect(d.op("request_check").effects).toEqual([{ update: "lorries", set: { check_status: "asked" } }]);
  });

  it("'the space goes to cleaning': the row its key's description names ('loading space code'), never 'it', never another row", () => {
    expect(d.op("release_bay").effects).toEqual([{ update: "bays", set: { status: "cleaning" } }]);
    expect(d.op("move_lorry").effects).toEqual([]);
  });
});

describe("fields a function clears", () => {
  it("reads '<column> is filled when …; it is cleared by `fn`' from a list item, and nothing else", () => {
    const text = "## 2\n\n- **Y-2.1** review_due_by is filled when a level 1 is given (or\n  a job is re-graded); it is cleared by\n  `review_job`.\n- **Y-2.2** next_due is recalculated by `grade_job`.\n";
    expect(clearedBy(text)).toEqual([{ column: "review_due_by", fn: "review_job" }]);
  });
});

describe("words", () => {
  it("a plural in -ies is the same word as its singular in -y", () => {
    expect([sameWord("beneficiaries", "beneficiary"), sameWord("entry", "entries"), sameWord("entry", "enter")]).toEqual([true, true, false]);
  });
});

const LEDGER = `# Depot Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_client\` | client_id | name, loyalty_status, credit_status |
| \`get_wallet\` | wallet_id | client_id, balance, minimum_balance |
| \`get_payout\` | payout_id | client_id, source_wallet_id, amount, status |
| \`get_invoice\` | invoice_id | client_id, status, audited_at |
| \`get_van\` | van_id | status, serviced_at |

## 2. Actions

### \`send_payout\`
Sends a payout at once and debits the source wallet. Parameter: payout_id. Refusals:
- "The payout would take the source wallet below its minimum balance. Top the wallet up first."
- "The payout would overdraw the source wallet."

### \`refund_payout\`
Returns a payout to its client; credits the source wallet. Parameter: payout_id.

### \`archive_invoice\`
Archives a closed invoice. Parameter: invoice_id. Refusals: "Only a closed invoice can be archived."

### \`audit_invoice\`
Checks an invoice line by line. Parameter: invoice_id. Returns: invoice_id, audited_at.

### \`service_van\`
Logs a service of a van. Parameter: van_id. Returns: van_id, serviced_at.

### \`grant_credit\`
Grants a credit line. Parameters: client_id; amount (number). Refusals:
- "No credit line while the client's loyalty review is overdue."
`;

describe("money between rows, stamps, the function's verb on its row, status columns named in a refusal", () => {
  const d = draft(LEDGER);

  it("'debits the source wallet' / 'credits the source wallet': the balance of the row the call's row points at, by the row's amount", () => {
    expect(d.op("send_payout").effects).toEqual([{ sql: "UPDATE wallets SET balance = balance - (SELECT amount FROM payouts WHERE payout_id = :payout_id) WHERE wallet_id = (SELECT source_wallet_id FROM payouts WHERE payout_id = :payout_id)" }]);
    expect(d.op("refund_payout").effects).toEqual([{ sql: "UPDATE wallets SET balance = balance + (SELECT amount FROM payouts WHERE payout_id = :payout_id) WHERE wallet_id = (SELECT source_wallet_id FROM payouts WHERE payout_id = :payout_id)" }]);
  });

  it("'would take the source wallet below its minimum balance' / 'would overdraw the source wallet'", () => {
    expect(d.pcs("send_payout")).toEqual([
      { message: "The payout would take the source wallet below its minimum balance. Top the wallet up first.", sql: "SELECT COUNT(*) = 1 FROM payouts x JOIN wallets r ON r.wallet_id = x.source_wallet_id WHERE x.payout_id = :payout_id AND r.balance - x.amount >= r.minimum_balance" },
      { message: "The payout would overdraw the source wallet.", sql: "SELECT COUNT(*) = 1 FROM payouts x JOIN wallets r ON r.wallet_id = x.source_wallet_id WHERE x.payout_id = :payout_id AND r.balance - x.amount >= 0" },
    ]);
  });

  it("'Archives a closed invoice' (archive_invoice): the row ends in the participle the text uses; never a made-up form ('sended')", () => {
    expect(d.op("archive_invoice").transition).toMatchObject({ table: "invoices", column: "status", from: "closed", to: "archived" });
    expect(d.set.tables.find((t) => t.name === "payouts")?.statuses).not.toContain("sended");
  });

  it("a returned time column named by the participle of a word of the function's name takes the call's time", () => {
    expect(d.op("audit_invoice").effects).toEqual([{ update: "invoices", set: { audited_at: ":now" } }]);
    expect(d.op("service_van").effects).toEqual([{ update: "vans", set: { serviced_at: ":now" } }]);
  });

  it("'No … while the client's loyalty review is overdue': the `loyalty_status` column is not that value", () => {
    expect(d.pcs("grant_credit")).toEqual([{ message: "No credit line while the client's loyalty review is overdue.", in_state: "clients", where: { loyalty_status: { not: "overdue" } } }]);
  });
});

const HOTEL = `# Front Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_stay\` | stay_id | guest, status, room_id, checked_in_at, keycard_issued_at |
| \`get_room\` | room_id | floor, status (vacant, occupied, cleaning, closed) |

## 2. Actions

### \`hold_stay\`
Puts a stay on hold for review; status becomes held_review. Parameter: stay_id.

### \`issue_keycard\`
Encodes a keycard for the stay. Parameter: stay_id. Returns: stay_id, keycard_issued_at.

### \`move_guest\`
Gives a guest another room. Moving a guest frees the room they leave (it goes to cleaning).
Parameters: stay_id; room_id — guest room number from the floor plan. Refusals:
- "The stay is held by fraud review. Call the duty manager."
- "Issue the keycard with issue_keycard before the guest moves."

### \`close_stay\`
Closes a stay and sends the guest room number it leaves to cleaning. Parameter: stay_id.
`;

describe("held states, what another function records, the row left behind", () => {
  const d = draft(HOTEL);

  it("'The stay is held by fraud review': not in the one state that starts with the participle", () => {
    expect(d.pcs("move_guest")[0]).toEqual({ message: "The stay is held by fraud review. Call the duty manager.", in_state: "stays", where: { status: { not: "held_review" } } });
  });

  it("'Issue the keycard with issue_keycard before …': the time column that function stamps on the row is filled", () => {
    expect(d.pcs("move_guest")[1]).toEqual({ message: "Issue the keycard with issue_keycard before the guest moves.", in_state: "stays", where: { keycard_issued_at: { not: null } } });
  });

  it("'frees the room they leave (it goes to cleaning)' / 'sends the guest room number it leaves to cleaning': the row pointed at before the call", () => {
    const left = "UPDATE rooms SET status = 'cleaning' WHERE room_id = (SELECT room_id FROM stays WHERE stay_id = :stay_id)";
    expect(d.op("move_guest").effects[0]).toEqual({ sql: left });
    expect(d.op("close_stay").effects).toEqual([{ sql: left }]);
  });
});

const CLUB = `# Club Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_client\` | client_id | name |
| \`get_visit\` | visit_id | client_id, fitness_level, locker_id, status |
| \`get_locker\` | locker_id | status |
| \`get_voucher\` | voucher_id | visit_id, status (issued, used), expires_at |

## 2. Actions

### \`give_locker\`
Gives a locker to a visit. Parameters: visit_id; locker_id — changing-room locker number.

### \`upgrade_visit\`
Upgrades a visit. Parameter: visit_id. Refusals:
- "Only a level 3 client who has not been assigned a changing-room locker can be upgraded."

### \`redeem_voucher\`
Redeems a voucher on a visit. Parameters: visit_id; voucher_id. Refusals:
- "The voucher is not an issued, unexpired voucher for this visit; an expired voucher is never reused."
`;

describe("numbered rows without a thing yet, and a valid row of another thing for this row", () => {
  const d = draft(CLUB);

  it("'Only a level 3 client who has not been assigned a changing-room locker': the number column and no reference to that thing (named by a key parameter's description)", () => {
    expect(d.pcs("upgrade_visit")).toEqual([{ message: "Only a level 3 client who has not been assigned a changing-room locker can be upgraded.", in_state: "visits", where: { fitness_level: 3, locker_id: null } }]);
  });

  it("'The voucher is not an issued, unexpired voucher for this visit': its state, its expiry ahead, and this row's", () => {
    expect(d.pcs("redeem_voucher")).toEqual([{ message: "The voucher is not an issued, unexpired voucher for this visit; an expired voucher is never reused.", sql: "SELECT COUNT(*) = 1 FROM vouchers WHERE voucher_id = :voucher_id AND status = 'issued' AND expires_at > :now AND visit_id = :visit_id" }]);
  });
});

const SHOP = `# Order Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_order\` | order_id | total, status |

## 2. Payments

\`take_payment\` — takes the payment of an order. Parameters: order_id.

| Message | Cause |
|---|---|
| The order is not awaiting payment | Already paid or cancelled |

### \`refund_order\`
Refunds an order. Parameter: order_id. Refusals: "The order is not refundable (already refunded or cancelled)."
`;

describe("states a refusal lists as the reason", () => {
  const d = draft(SHOP);

  it("'is not awaiting payment' with the Cause 'Already paid or cancelled', or '(already refunded or cancelled)' in the message: not in those states", () => {
    expect(d.pcs("take_payment")).toEqual([{ message: "The order is not awaiting payment", in_state: "orders", where: { status: { not: ["paid", "cancelled"] } } }]);
    expect(d.pcs("refund_order")).toEqual([{ message: "The order is not refundable (already refunded or cancelled).", in_state: "orders", where: { status: { not: ["refunded", "cancelled"] } } }]);
  });
});

const PARCELS = `# Parcel Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_parcel\` | parcel_id | weight, status |
| \`get_wallet\` | wallet_id | balance |

## 2. Actions

\`examine_parcel\` — examines a parcel at the bench. Parameters: parcel_id.

| Message | Cause |
|---|---|
| The parcel is not awaiting inspection | Already inspected or returned |

### \`move_funds\`
Transfers money from one wallet of a client to another. Parameters: from_wallet_id, to_wallet_id, amount.
`;

describe("what the call does to the row it awaits, transfers between two rows", () => {
  const d = draft(PARCELS);

  it("'not awaiting inspection' (Already inspected or returned): refused in those states, and the call leaves the row in the one sharing the noun's stem", () => {
    expect(d.pcs("examine_parcel")).toEqual([{ message: "The parcel is not awaiting inspection", in_state: "parcels", where: { status: { not: ["inspected", "returned"] } } }]);
    expect(d.op("examine_parcel").effects).toEqual([{ update: "parcels", set: { status: "inspected" } }]);
  });

  it("'transfer between two wallets' with from_wallet_id, to_wallet_id and one number: a debit and a credit of the balance", () => {
    expect(d.op("move_funds").effects).toEqual([
      { sql: "UPDATE wallets SET balance = balance - :amount WHERE wallet_id = :from_wallet_id" },
      { sql: "UPDATE wallets SET balance = balance + :amount WHERE wallet_id = :to_wallet_id" },
    ]);
  });
});

const ORDERS = `# Order Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_order\` | order_id | total, status, hold_flag |

## 2. Actions

### \`clear_hold\`
Clears an address query. Parameter: order_id. Refusals: "The order carries no open address query."

### \`report_fraud\`
Reports an order to the fraud team; status becomes held_fraud. Parameter: order_id. Refusals: "Only an unshipped order with a fraud check hit can be reported."

### \`ship_order\`
Ships an order; status becomes shipped. Parameter: order_id. Refusals: "The order has an open hold flag (fraud check hit or address query). Clear it first."

### \`change_order\`
Changes an order. Parameter: order_id. Refusals: "The parcel has been shipped; the order can no longer be changed at the desk."
`;

describe("flags and states the row can no longer leave", () => {
  const d = draft(ORDERS);

  it("'has an open hold flag (fraud check hit or address query)': none of the values listed, nothing counting as none", () => {
    expect(d.pcs("ship_order")).toEqual([{ message: "The order has an open hold flag (fraud check hit or address query). Clear it first.", sql: "SELECT COUNT(*) = 1 FROM orders WHERE order_id = :order_id AND COALESCE(hold_flag, '') NOT IN ('fraud_check_hit', 'address_query')" }]);
  });

  it("'carries no open address query' / 'Only an unshipped order with a fraud check hit': the flag's known value (read in the first pass)", () => {
    expect(d.pcs("clear_hold")).toEqual([{ message: "The order carries no open address query.", in_state: "orders", where: { hold_flag: "address_query" } }]);
    expect(d.pcs("report_fraud")).toEqual([{ message: "Only an unshipped order with a fraud check hit can be reported.", in_state: "orders", where: { status: { not: "shipped" }, hold_flag: "fraud_check_hit" } }]);
  });

  it("'The parcel has been shipped; the order can no longer be changed': the row is not in that state", () => {
    expect(d.pcs("change_order")).toEqual([{ message: "The parcel has been shipped; the order can no longer be changed at the desk.", in_state: "orders", where: { status: { not: "shipped" } } }]);
  });
});

const WALLETS = `# Wallet Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_client\` | client_id | name |
| \`get_wallet\` | wallet_id | client_id, currency, balance, status |

## 2. Actions

### \`swap_currency\`
Quotes a swap. Parameters: client_id, pay_wallet_id, receive_wallet_id. Refusals:
- "Both wallets must be open wallets of the client in different currencies."

### \`shift_funds\`
Moves money at once. Parameters: from_wallet_id, to_wallet_id, amount. Refusals:
- "Shifts are only possible between two different open wallets of the same client in the same currency."
`;

describe("two rows of one table", () => {
  const d = draft(WALLETS);

  it("'Both wallets must be open wallets of the client in different currencies'", () => {
    expect(d.pcs("swap_currency")).toEqual([{ message: "Both wallets must be open wallets of the client in different currencies.", sql: "SELECT COUNT(*) = 1 FROM wallets a JOIN wallets b ON b.wallet_id = :receive_wallet_id WHERE a.wallet_id = :pay_wallet_id AND a.status = 'open' AND b.status = 'open' AND a.client_id = :client_id AND b.client_id = :client_id AND a.currency != b.currency" }]);
  });

  it("'… only possible between two different open wallets of the same client in the same currency'", () => {
    expect(d.pcs("shift_funds")).toEqual([{ message: "Shifts are only possible between two different open wallets of the same client in the same currency.", sql: "SELECT COUNT(*) = 1 FROM wallets a JOIN wallets b ON b.wallet_id = :to_wallet_id WHERE a.wallet_id = :from_wallet_id AND a.wallet_id != b.wallet_id AND a.status = 'open' AND b.status = 'open' AND a.client_id = b.client_id AND a.currency = b.currency" }]);
  });
});

const CARDS = `# Loyalty Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_client\` | client_id | name |
| \`get_order\` | order_id | client_id, total, status |
| \`get_loyalty_card\` | loyalty_card_id | holder, points |

## 2. Actions

### \`redeem_points\`
Pays an order with points. Parameters: order_id, loyalty_card_id. Refusals:
- "The loyalty card is not held by the client of this order."
`;

describe("a row of another thing that must belong to the row's owner", () => {
  it("'The loyalty card is not held by the client of this order': its holder is the order's client", () => {
    expect(draft(CARDS).pcs("redeem_points")).toEqual([{ message: "The loyalty card is not held by the client of this order.", sql: "SELECT COUNT(*) = 1 FROM loyalty_cards x JOIN orders y ON y.client_id = x.holder WHERE x.loyalty_card_id = :loyalty_card_id AND y.order_id = :order_id" }]);
  });
});

const INTAKE = `# Intake Manual

## 1. Actions

#### \`get_client\`
Read one client. Parameters: client_id (string): client number. Returns: client_id, name.

#### \`get_visit\`
Read one visit. Parameters: visit_id (string): visit number. Returns: visit_id, client_id, status, intake_recorded, intake_weapon.

#### \`record_intake\`
Record the intake told by the client. Parameters: visit_id (string): visit number; weapon (string, no / yes, ask the client): whether the client carries a weapon. Returns: visit_id, intake_recorded, intake_weapon.

#### \`admit_client\`
Admit the client of a visit. Parameters: visit_id (string): visit number.

- \`cleared\`: The intake must be recorded and the client must not be carrying a weapon.
`;

describe("two joined conditions", () => {
  it("'The intake must be recorded and the client must not be carrying a weapon': the flag, and the yes/no column another function fills", () => {
    expect(draft(INTAKE).pcs("admit_client")).toEqual([{ message: "The intake must be recorded and the client must not be carrying a weapon.", in_state: "visits", where: { intake_recorded: 1, intake_weapon: { not: "yes" } } }]);
  });
});

const SHIFT = `# Ward Manual

## 1. Conventions

- Times are minutes of the day: minute 0 is 08:00.

## 2. Actions

#### \`get_client\`
Read one client. Parameters: client_id (string): client number. Returns: client_id, name.

#### \`get_booking\`
Read one booking. Parameters: booking_id (string): booking number. Returns: booking_id, client_id, status, next_review_due.

#### \`note_booking\`
Note a booking for the evening team. Parameters: booking_id (string): booking number.

- \`review_current\`: The client's review is overdue or falls due before the 17:00 close; review first.
`;

describe("a due time before a clock time", () => {
  it("'The client's review is overdue or falls due before the 17:00 close': the `…_due` time (an integer minute) is neither past nor before that minute", () => {
    const d = draft(SHIFT);
    expect(d.set.tables.find((t) => t.name === "bookings")?.columns.find((c) => c.name === "next_review_due")?.type).toBe("integer");
    expect(d.pcs("note_booking")).toEqual([{ message: "The client's review is overdue or falls due before the 17:00 close; review first.", sql: "SELECT COUNT(*) = 1 FROM bookings WHERE booking_id = :booking_id AND next_review_due >= :now AND next_review_due >= 540" }]);
  });
});

const TICKETS = `# Help Desk Manual

## 1. Enquiries

| Function | Parameters | Returns |
|---|---|---|
| \`get_ticket\` | ticket_id | status |
| \`get_query\` | query_id | ticket_id, status |

## 2. Actions

### \`close_query\`
Closes a query; status becomes closed. A query still unanswered leaves the query "awaiting_reply". Parameter: query_id.

### \`answer_ticket\`
Answers a ticket and closes a query awaiting the reply. Parameter: ticket_id.
`;

describe("rows of another table that belong to the call's row", () => {
  it("'leaves the query \"awaiting_reply\"' is a state; '… closes a query awaiting the reply': this row's queries in that state are closed", () => {
    const d = draft(TICKETS);
    expect(d.set.tables.find((t) => t.name === "queries")?.statuses).toEqual(["closed", "awaiting_reply"]);
    expect(d.op("answer_ticket").effects).toEqual([{ sql: "UPDATE queries SET status = 'closed' WHERE ticket_id = :ticket_id AND status = 'awaiting_reply'" }]);
  });
});
