import type { FormalRule } from "../../schemas/world-model.js";
import type { SopRule } from "../../schemas/sop.js";
import type { DraftOperation, Pending } from "./draft-operations.js";
import { amountIn, sentenceFrom } from "./text.js";

/**
 * Formal rules with provenance: every clause a refusal message cites (`(TRI-1.2)`, a Cause cell)
 * that a document in force defines becomes a rule its precondition points at; a limit whose number
 * a clause in force states takes that clause's rule, with the number as the rule's `value`; a
 * clause saying an operation needs the customer's approval becomes an approval rule of it.
 */

const APPROVAL = /approv\w* by the [a-z]+|[a-z]+'s (?:authorised approver|approval|consent|agreement|authori[sz]ation)|only after the [a-z ]+? has (?:approved|accepted|agreed|authori[sz]ed)/i;

const ruleId = (clause: string) => `R-${clause.replace(/\./g, "-")}`;

function kindOf(r: SopRule): FormalRule["kind"] {
  if (APPROVAL.test(r.statement)) return "approval";
  if (/\bbefore \d{1,2}:\d{2}\b|cut-?off|deadline|within \d+ minutes/i.test(r.statement)) return "deadline";
  return "precondition";
}

/** The formal rules of the draft; preconditions, limits and operations are linked to them in place. */
export function draftRules(ops: DraftOperation[], rules: readonly SopRule[], review: Pending[], fileOf: (document: string, version: string) => string): FormalRule[] {
  const current = new Map<string, SopRule>();
  for (const r of rules) if (r.status === "current" && !current.has(r.id)) current.set(r.id, r);
  const out = new Map<string, FormalRule>();
  const use = (r: SopRule, extra: Partial<FormalRule> = {}): string => {
    const id = ruleId(r.id);
    const hit = out.get(id);
    if (hit) {
      Object.assign(hit, extra);
      return id;
    }
    const description = sentenceFrom(r.statement, 0).slice(0, 240);
    out.set(id, { id, clause: { document: r.document, clause: r.id }, kind: kindOf(r), description: description.length > 0 ? description : r.statement.slice(0, 240), ...extra });
    return id;
  };
  for (const op of ops) {
    for (const pc of op.preconditions) {
      const cited = (op.clauses.get(pc.id) ?? []).map((c) => current.get(c)).find((r) => r !== undefined);
      if (cited) pc.rule = use(cited);
      // A limit's number stated by a clause in force: the clause's rule carries it.
      for (const c of ["above", "at_least", "below", "at_most"] as const) {
        const bound = pc[c];
        if (typeof bound !== "number") continue;
        const stating = [...current.values()].find((r) => amountIn(r.statement)?.value === bound && (cited === undefined || cited === r)) ?? null;
        if (!stating) continue;
        const id = use(stating, { value: bound, unit: amountIn(stating.statement)?.unit as string });
        pc[c] = { rule: id };
        pc.rule ??= id;
      }
    }
    if (op.transition) {
      const cited = (op.clauses.get(op.transition.id as string) ?? []).map((c) => current.get(c)).find((r) => r !== undefined);
      if (cited) op.transition.rule = use(cited);
    }
  }
  for (const r of current.values()) {
    if (!APPROVAL.test(r.statement)) continue;
    // The operations the clause names (in inline code; the SOP of documents alone has no world to classify them).
    const named = new Set([...r.affected_objects, ...[...r.statement.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1] as string)]);
    for (const name of named) {
      const op = ops.find((o) => o.name === name && o.side === "agent" && o.access === "write");
      if (!op) continue;
      const id = use(r);
      if (!op.rules.includes(id)) op.rules.push(id);
      if (!op.requires_approval && !op.proposes) {
        review.push({ kind: "approval", subject: `operation ${op.name}`, what: `clause ${r.id} says ${op.name} needs the customer's approval: add requires_approval (and the operation that proposes its terms)`, where: [{ file: fileOf(r.provenance.document, r.provenance.version), line: r.provenance.line_start, text: r.statement.slice(0, 200) }] });
      }
    }
  }
  return [...out.values()];
}
