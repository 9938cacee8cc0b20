import { readdirSync, readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { Task, Trace, type TraceEvent } from "../../pipeline/schemas/index.js";
import { auditTranscript, factsAsked, factsContradicted, factsStated } from "../../pipeline/evaluate/customer/audit-transcript.js";
import { openingFor } from "../../pipeline/evaluate/ablation.js";

const OPENING = "Hello, this is Alpenrand Holz AG (customer number CL-103). Please release payment PAY-10023 and cancel PAY-10021.";
const TERMS = { amount: 47500, beneficiary_id: "BEN-1033", currency: "CHF", payment_id: "PAY-10023" };

/** A task with a code-valued fact, two facts whose topics overlap, a small number and an agreed approval. */
function task(opening = OPENING): Task {
  return Task.parse({
    id: "audit-t",
    domain: "fx-treasury",
    title: "t",
    objective: "o",
    workflows: ["w"],
    as_of: "2026-03-02",
    customer_id: "CL-103",
    scenario: {
      persona: "a treasury manager",
      opening_request: opening,
      private_facts: [
        { id: "reason", statement: "The reason is client_request.", value: "client_request", param: "reason", disclose_when: ["reason", "reason for the cancellation as stated by the client"] },
        { id: "reason_code", statement: "The reason code is DUPL.", value: "DUPL", param: "reason_code", disclose_when: ["reason code"] },
        { id: "invoice_value", statement: "The invoice value is 48000.", value: 48000, disclose_when: ["invoice value"] },
        { id: "pain_score", statement: "My pain score is 3.", value: 3, disclose_when: ["pain score"] },
        { id: "cough_with_fever", statement: "Cough with fever: yes.", value: "yes", disclose_when: ["cough with fever"] },
      ],
      permitted_actions: ["approve_payment_release"],
      approves: [{ kind: "payment_release", terms: TERMS }],
    },
    checks: { goal: [{ id: "g", group: "goal", kind: "row_equals", params: {}, description: "d", provenance: { source: "customer", at: { task: "audit-t", requirement: "r" } } }] },
    reference_plan: [{ step: 1, actor: "agent", operation: "get_payment", args: {}, workflow: null, sop_step: null, why: "w" }],
    documents: { relevant: [], distractors: [] },
  });
}

type Ev = Omit<Partial<TraceEvent>, "index"> & Pick<TraceEvent, "kind" | "actor">;

function trace(events: Ev[]): Trace {
  return Trace.parse({
    task: "audit-t",
    role: "agent",
    seed: 1,
    initial_state_hash: "h0",
    final_state_hash: "h1",
    clock_end: 0,
    events: events.map((e, i) => ({ name: "message", status: "executed", time: 0, ...e, index: i + 1 })),
  });
}

const customer = (text: string, facts: string[] = []): Ev => ({ kind: "customer_message", actor: "customer", text, facts });
const agent = (text: string): Ev => ({ kind: "agent_message", actor: "agent", text });
const proposalRow = (id: string, terms: Record<string, unknown>, status = "pending") => ({ proposal_id: id, kind: "payment_release", operation: "propose_payment_release", terms_json: JSON.stringify(terms), status });
const propose = (id: string, terms: Record<string, unknown>): Ev => ({
  kind: "proposal",
  actor: "agent",
  name: "propose_payment_release",
  args: terms,
  proposal_id: id,
  changes: [{ table: "_proposals", key: id, before: null, after: proposalRow(id, terms) }],
});
const approve = (id: string, status: TraceEvent["status"] = "executed"): Ev => ({ kind: "approval", actor: "customer", name: "approve_payment_release", args: { proposal_id: id }, status, proposal_id: id });

describe("auditTranscript: a transcript the customer played by the rules has no flag", () => {
  it("opening, asked facts disclosed, approval of the agreed terms after the agent asked for it", () => {
    const t = trace([
      customer(OPENING),
      agent("To continue I need one detail from you: could you give me the reason?"),
      customer("The reason is client_request.", ["reason"]),
      agent("And the recall reason code, please? Also, what is the invoice value?"),
      customer("The reason code is DUPL. The invoice value is EUR 48,000."),
      propose("PR-0001", TERMS),
      agent("Please review and approve proposal PR-0001."),
      approve("PR-0001"),
    ]);
    expect(auditTranscript(task(), t)).toEqual([]);
  });

  it("a renewal: the correction of approved terms said right after the approval is no flag; the same words anywhere else are an unprompted disclosure", () => {
    const statement = "One correction to what I just approved, please: the invoice value must be 49920.00, not 48000.00.";
    const base = task();
    const renewing = Task.parse({ ...base, scenario: { ...base.scenario, renewals: [{ kind: "payment_release", param: "invoice_value", value: 49920, statement }] } });
    const opening = [customer(OPENING), propose("PR-0001", TERMS), agent("Please review and approve proposal PR-0001.")];
    expect(auditTranscript(renewing, trace([...opening, approve("PR-0001"), customer(statement)]))).toEqual([]);
    expect(auditTranscript(renewing, trace([...opening, customer(statement), approve("PR-0001")]))).toEqual([{ kind: "unprompted_disclosure", event: 4, detail: 'disclosed private fact "invoice_value" without being asked for it' }]);
    // Only the scenario's own statement is exempt.
    expect(auditTranscript(base, trace([...opening, approve("PR-0001"), customer(statement)]))).toEqual([{ kind: "unprompted_disclosure", event: 5, detail: 'disclosed private fact "invoice_value" without being asked for it' }]);
  });

  it("every golden and violation trace of the sample release (scripted customer) has no flag", () => {
    const root = fileURLToPath(new URL("../../generated/releases/sample", import.meta.url));
    const newest = readdirSync(root).sort((a, b) => a.localeCompare(b, "en", { numeric: true })).at(-1) as string;
    const domains = `${root}/${newest}/domains`;
    let traces = 0;
    const flagged: string[] = [];
    for (const d of readdirSync(domains)) {
      for (const sub of ["golden", "violations"]) {
        const dir = `${domains}/${d}/${sub}`;
        if (!existsSync(dir)) continue;
        for (const f of (readdirSync(dir, { recursive: true }) as string[]).filter((x) => x.endsWith(".json"))) {
          const tr = Trace.parse(JSON.parse(readFileSync(`${dir}/${f}`, "utf8")));
          const tk = Task.parse(JSON.parse(readFileSync(`${domains}/${d}/tasks/${tr.task}.json`, "utf8")));
          traces++;
          if (auditTranscript(tk, tr).length > 0) flagged.push(`${sub}/${f}`);
        }
      }
    }
    expect(traces).toBeGreaterThan(100);
    expect(flagged).toEqual([]);
  });
});

describe("auditTranscript: unprompted disclosure", () => {
  it("a fact stated before the agent asked is flagged once, at the line that stated it", () => {
    const t = trace([customer(OPENING), agent("Let me look at the payment."), customer("By the way, the reason is client_request."), agent("What is the reason?"), customer("As I said, client_request.")]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "unprompted_disclosure", event: 3, detail: 'disclosed private fact "reason" without being asked for it' }]);
  });

  it("a value the agent said first (a guess the customer confirms) is not an unprompted disclosure", () => {
    const t = trace([customer(OPENING), agent("Shall I record client_request for the cancellation?"), customer("Yes, client_request.")]);
    expect(auditTranscript(task(), t)).toEqual([]);
  });

  it("a fact declared in the event's facts counts as disclosed even when the text hides the value", () => {
    const t = trace([customer(OPENING), customer("Here is what you need.", ["reason_code"])]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "unprompted_disclosure", event: 2, detail: 'disclosed private fact "reason_code" without being asked for it' }]);
  });

  it("a small number counts only where the sentence names the fact's topic", () => {
    expect(factsStated(task(), "I have waited 3 days for this.")).toEqual([]);
    expect(factsStated(task(), "My pain score is 3.")).toEqual(["pain_score"]);
    const t = trace([customer(OPENING), customer("I have waited 3 days. My pain score is 3 today.")]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "unprompted_disclosure", event: 2, detail: 'disclosed private fact "pain_score" without being asked for it' }]);
  });

  it("values said in the world's words: a labelled statement, its answer alone, free text ending a sentence; a wrong code after a question names its fact", () => {
    const base = task();
    const worded = Task.parse({
      ...base,
      scenario: {
        ...base.scenario,
        private_facts: [
          { id: "reason", statement: "The reason? We no longer want it made.", value: "client_request", param: "reason", disclose_when: ["reason"] },
          { id: "reason_code", statement: "The reason code? It was paid twice (DUPL).", value: "DUPL", param: "reason_code", disclose_when: ["reason code"] },
          { id: "allergies", statement: "The allergies are No known drug allergies.", value: "No known drug allergies", param: "allergies", disclose_when: ["allergies"] },
        ],
      },
    });
    expect(factsStated(worded, "The reason? We no longer want it made.")).toEqual(["reason"]);
    expect(factsStated(worded, "Well, we no longer want it made, that's all.")).toEqual(["reason"]);
    expect(factsStated(worded, "The allergies are No known drug allergies.")).toEqual(["allergies"]);
    expect(factsStated(worded, "We want it made today.")).toEqual([]);
    expect(factsContradicted(worded, "The reason code? A technical problem sent it (TECH).").map((c) => [c.fact.id, c.stated])).toEqual([["reason_code", ["TECH"]]]);
    expect(factsContradicted(worded, "The reason code? It was paid twice (DUPL).")).toEqual([]);
  });

  it("asking names a topic, the fact id or its parameter; a topic inside a longer one is not the shorter fact", () => {
    expect(factsAsked(task(), "Could you tell me the REASON_CODE?")).toEqual(["reason", "reason_code"]);
    expect(factsAsked(task(), "What is the invoice value?")).toEqual(["invoice_value"]);
    // Asked for the reason code only; the customer's sentence about the reason code does not disclose the reason.
    const t = trace([customer(OPENING), agent("What is the reason code?"), customer("The reason code is DUPL.")]);
    expect(auditTranscript(task(), t)).toEqual([]);
  });

  it("the evaluator's opening is exempt, also in its full-disclosure form; the same words later are not", () => {
    const opening = "Please cancel PAY-10021; the reason is client_request.";
    const t = trace([customer(opening), customer(opening)]);
    expect(auditTranscript(task(opening), t)).toEqual([]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "unprompted_disclosure", event: 1, detail: 'disclosed private fact "reason" without being asked for it' }]);
    const full = openingFor(task(), "full-disclosure");
    expect(full.facts).toEqual(["reason", "reason_code", "invoice_value", "pain_score", "cough_with_fever"]);
    expect(auditTranscript(task(), trace([customer(full.text, full.facts), agent("Thanks."), customer("Reason code DUPL, as I said.")]))).toEqual([]);
  });
});

describe("auditTranscript: contradicted facts", () => {
  it("a code or number of the fact's shape other than its value, in a sentence naming the fact, is flagged", () => {
    const t = trace([
      customer(OPENING),
      agent("What are the reason, the reason code and the invoice value?"),
      customer("The reason is duplicate_payment. The reason code is FRAD, and the invoice value is 45,000 EUR."),
    ]);
    expect(auditTranscript(task(), t)).toEqual([
      { kind: "contradicted_fact", event: 3, detail: 'stated duplicate_payment for private fact "reason", whose value is "client_request"' },
      { kind: "contradicted_fact", event: 3, detail: 'stated FRAD, EUR for private fact "reason_code", whose value is "DUPL"' },
      { kind: "contradicted_fact", event: 3, detail: 'stated 45,000 for private fact "invoice_value", whose value is 48000' },
    ]);
  });

  it("a reference echoed from the opening or an agent line, or another fact's value, is not a contradiction", () => {
    const t = trace([
      customer(OPENING),
      agent("What is the reason for cancelling PAY-10021, and the reason code? I have proposal PR-0001 open."),
      customer("The reason for cancelling PAY-10021 is that we paid twice. The reason code of PR-0001 is FRAD."),
      agent("And the reason code once more?"),
      customer("The reason code for client_request is DUPL."),
    ]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "contradicted_fact", event: 3, detail: 'stated FRAD for private fact "reason_code", whose value is "DUPL"' }]);
  });

  it("a yes/no fact answered the other way is flagged even when the agent's question said both words", () => {
    const t = trace([customer(OPENING), agent("Do you have a cough with fever, yes or no?"), customer("Cough with fever: no.")]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "contradicted_fact", event: 3, detail: 'stated no for private fact "cough_with_fever", whose value is "yes"' }]);
  });

  it("a later change of a fixed fact is flagged; the right value among others is not", () => {
    const t = trace([
      customer(OPENING),
      agent("What is the invoice value?"),
      customer("The invoice value is 48000, for 12 pallets."),
      agent("Can you confirm the invoice value?"),
      customer("Sorry, the invoice value is 48500."),
    ]);
    expect(auditTranscript(task(), t)).toEqual([{ kind: "contradicted_fact", event: 5, detail: 'stated 48500 for private fact "invoice_value", whose value is 48000' }]);
  });
});

describe("auditTranscript: customer actions", () => {
  it("an approval the agent never asked for is unrequested; a second approval needs a second request", () => {
    const t = trace([customer(OPENING), propose("PR-0001", TERMS), agent("Please approve PR-00012."), approve("PR-0001"), agent("Please approve PR-0001."), approve("PR-0001"), approve("PR-0001", "rejected")]);
    expect(auditTranscript(task(), t)).toEqual([
      { kind: "unrequested_action", event: 4, detail: "performed approve_payment_release of PR-0001 without an agent request since the start" },
      { kind: "unrequested_action", event: 7, detail: "performed approve_payment_release of PR-0001 without an agent request since event 6" },
    ]);
  });

  it("a customer-side operation without a proposal is requested by its name or by every argument the agent knows", () => {
    const supply = (reference: string): Ev => ({ kind: "customer_action", actor: "customer", name: "supply_document", args: { declaration_id: "DEC-26-004172", doc_type: "proof_of_origin", reference } });
    const ok = trace([customer(OPENING), agent("Please upload the proof of origin for DEC-26-004172."), supply("client_request")]);
    expect(auditTranscript(task(), ok)).toEqual([]);
    const byName = trace([customer(OPENING), agent("Could you supply document evidence?"), supply("X-1")]);
    expect(auditTranscript(task(), byName)).toEqual([]);
    const bad = trace([customer(OPENING), agent("Please upload the proof of origin."), supply("X-1")]);
    expect(auditTranscript(task(), bad)).toEqual([
      { kind: "unrequested_action", event: 3, detail: 'performed supply_document({"declaration_id":"DEC-26-004172","doc_type":"proof_of_origin","reference":"X-1"}) without an agent request since the start' },
    ]);
  });

  it("an approval of terms other than the agreed ones, or of a proposal never recorded, is unagreed", () => {
    const t = trace([customer(OPENING), propose("PR-0001", { ...TERMS, amount: 47600 }), agent("Please approve PR-0001 and PR-0009."), approve("PR-0001"), approve("PR-0009", "errored")]);
    expect(auditTranscript(task(), t)).toEqual([
      { kind: "unagreed_approval", event: 4, detail: 'approved PR-0001 (payment_release) on terms {"amount":47600,"beneficiary_id":"BEN-1033","currency":"CHF","payment_id":"PAY-10023"}, which the customer never agreed to' },
      { kind: "unagreed_approval", event: 5, detail: "approved PR-0009, a proposal the transcript never recorded, so its terms were never agreed" },
    ]);
  });

  it("an explicitly faulted approval attempt is still audited as an approval", () => {
    const t = trace([customer(OPENING), propose("PR-0001", { ...TERMS, currency: "EUR" }), { kind: "fault", actor: "customer", name: "approve_payment_release", args: { proposal_id: "PR-0001" }, status: "faulted" }]);
    expect(auditTranscript(task(), t).map((f) => [f.kind, f.event])).toEqual([
      ["unrequested_action", 3],
      ["unagreed_approval", 3],
    ]);
  });
});
