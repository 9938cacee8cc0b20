import { unitIndex, type Operation, type SopBranch, type SopStep, type SopWorkflow, type Table, type Task } from "../../schemas/index.js";
import { evaluateCondition, parseCondition, type Condition } from "../../sop/condition.js";
import { versionTrap } from "./version-traps.js";
import type { DomainContext } from "../../world/domain-context.js";
import { termsOf } from "../../world/approvals.js";
import { bindArgs, learn, type Bag } from "./bind-args.js";
import { executePlan } from "./execute-plan.js";
import { documentReads } from "./document-reads.js";
import type { PlanAction } from "./actions.js";
import type { WorldIndex } from "./world-index.js";

/** One workflow of a task, about one subject row. */
export interface PlanUnit {
  workflow: SopWorkflow;
  table: Table;
  key: string | number;
  /** The subject row as in the task's initial state (hidden columns included). */
  row: Record<string, unknown>;
  /** Rows the subject row references, and the customer row: what the customer may know. */
  related: Record<string, unknown>[];
}

/** A private fact the plan needs from the customer. */
export interface NeededFact {
  param: string;
  value: unknown;
  description: string;
}

export interface DerivedPlan {
  actions: PlanAction[];
  facts: NeededFact[];
  approvals: Array<{ kind: string; terms: Record<string, unknown> }>;
  /** Per unit: the index in `actions` of the last write the workflow executed. */
  terminals: number[];
  /** Every decision branch evaluated on the live state, and whether it held (the branch taken). */
  decisions: Task["decisions"];
}

/** Retries of a rejected write after the clock moves on (a review pending, an event due). */
const RETRY_WAITS = [30, 60];
/** Bound on the number of plan executions one derivation may spend. */
const BUDGET = 400;

interface Node {
  step: SopStep | null;
  actions: PlanAction[];
  bag: Bag;
  facts: NeededFact[];
  approvals: DerivedPlan["approvals"];
  wrote: boolean;
  lastWrite: number;
  /** Decision branches evaluated on the way, with whether each held. */
  decisions: Task["decisions"];
  /** Terms the customer corrected after approving them (scenario renewals applied so far). */
  corrected: Map<string, unknown>;
}

/**
 * Derive a plan for a sequence of workflow units by searching the SOP's step graph: from each step,
 * the next step and every branch target are tried in document order; a path survives while every
 * call on it executes on the live state (a rejected write may be retried after a wait) and every
 * write changes a row, and it succeeds when it reaches the end of the workflow having executed at
 * least one write. A decision whose condition (condition language, pipeline/sop/condition.ts)
 * can be evaluated on the live state and the customer's facts sends the path down the branch the
 * document requires; only undecidable branches (events the world decides) are left to the state.
 * With `renewals`, the customer corrects a term right after approving it (the scenario's
 * renewals): the plan then proposes the corrected terms and asks for a new approval.
 */
export function derivePlan(ctx: DomainContext, index: WorldIndex, drafted: (facts: NeededFact[], approvals: DerivedPlan["approvals"]) => Task, units: readonly PlanUnit[], renewals: Task["scenario"]["renewals"] = []): DerivedPlan | { reason: string } {
  let budget = BUDGET;
  const draft = renewals.length === 0 ? drafted : (facts: NeededFact[], approvals: DerivedPlan["approvals"]): Task => {
    const t = drafted(facts, approvals);
    return { ...t, scenario: { ...t.scenario, renewals: [...renewals] } };
  };
  let start: Node = { step: null, actions: [], bag: new Map(), facts: [], approvals: [], wrote: false, lastWrite: -1, decisions: [], corrected: new Map() };
  const terminals: number[] = [];
  const customerId = draft([], []).customer_id;
  for (const [ui, unit] of units.entries()) {
    // A second piece of the same workflow (another row) is told apart by its index.
    const tag = units.findIndex((u) => u.workflow.id === unit.workflow.id) === ui ? {} : { unit: ui };
    const knows = customerKnowledge(unit);
    const bag: Bag = new Map(start.bag);
    // The keys of rows the subject references or is referenced by (one each) are known from the start;
    // the subject's own visible columns override them.
    for (const r of unit.related) {
      for (const t of index.world.tables) {
        const k = r[t.primary_key];
        if (k !== undefined && k !== null && Object.keys(r).length === t.columns.length && t.columns.every((c) => c.name in r)) bag.set(t.primary_key, k);
      }
    }
    for (const [k, v] of Object.entries(visibleColumns(unit.table, unit.row))) if (v !== null) bag.set(k, v);
    const customerKey = index.customerTable.primary_key;
    const ownerValue = unit.table.owner_column ? unit.row[unit.table.owner_column] : unit.table.name === index.customerTable.name ? unit.key : undefined;
    if (ownerValue !== undefined) bag.set(customerKey, ownerValue);
    const steps = [...unit.workflow.steps].sort((a, b) => a.number - b.number);
    const byId = new Map(steps.map((s) => [s.id, s]));
    const successors = (s: SopStep, closed: ReadonlySet<string> = new Set()): Array<SopStep | null> => {
      const out: Array<SopStep | null> = [];
      const add = (id: string | null) => {
        const t = id === null ? null : (byId.get(id) ?? undefined);
        if (t === undefined) return;
        if (t && t.number <= s.number) return; // returns are loops back; the search only moves forward
        if (!out.includes(t)) out.push(t);
      };
      for (const tr of unit.workflow.transitions.filter((t) => t.from === s.id && t.kind === "branch" && !closed.has(t.when ?? ""))) add(tr.to);
      for (const tr of unit.workflow.transitions.filter((t) => t.from === s.id && t.kind === "next")) add(tr.to);
      if (out.length === 0) add(steps[steps.indexOf(s) + 1]?.id ?? null);
      // Going on is tried before stopping: an early end ("stop: the payment cannot be made") is the last resort.
      return [...out.filter((t) => t !== null), ...out.filter((t) => t === null)];
    };
    // A workflow is done only when its last write is at a step the procedure can end after
    // (a transition to the end, or the last step): preparatory writes alone do not count.
    const finishing = new Set([...unit.workflow.transitions.filter((t) => t.to === null).map((t) => t.from), steps[steps.length - 1]?.id ?? ""]);
    const first = steps[0];
    if (!first) return { reason: `workflow ${unit.workflow.id} has no steps` };
    let found: Node | null = null;
    // The failure reported is the one furthest through the procedure (the first one seen there):
    // the last one tried is often an early detour (a branch with nothing to approve), not the blocker.
    let failure: { at: number; text: string } | null = null;
    const fail = (step: SopStep, text: string): void => {
      if (!failure || step.number > failure.at) failure = { at: step.number, text };
    };
    // Of all paths that reach an end having written, keep the one that got furthest through the
    // procedure (its last write is the latest step), then the shortest.
    const better = (a: Node | null, b: Node | null): Node | null => {
      if (!a) return b;
      if (!b) return a;
      const sa = writeStep(a), sb = writeStep(b);
      if (sa !== sb) return sa > sb ? a : b;
      return b.actions.length < a.actions.length ? b : a;
    };
    const writeStep = (n: Node): number => {
      const w = n.actions[n.lastWrite];
      return w ? (byId.get(w.step ?? "")?.number ?? 0) : 0;
    };
    const visit = (step: SopStep | null, node: Node): Node | null => {
      if (step === null) return node.wrote && node.lastWrite >= start.actions.length && finishing.has(node.actions[node.lastWrite]?.step ?? "") ? node : null;
      if (budget <= 0) return null;
      const next = perform(step, node);
      if (!next) return null;
      // The procedure's decision at this step, evaluated on the live state and the customer's facts:
      // a branch whose condition holds is the only way on (its operations done here); a branch whose
      // condition does not hold is never taken. Undecidable branches (events the world decides) stay open.
      const verdicts = decide(step, next);
      if (verdicts) {
        const recorded = { ...next, decisions: [...next.decisions, ...verdicts.record] };
        if (verdicts.held) {
          let at: Node | null = recorded;
          const target = verdicts.held.goto === null ? undefined : byId.get(verdicts.held.goto);
          // The branch's operations are done at the decision, unless the step it leads to does it.
          for (const opName of verdicts.held.operations.filter((o) => o !== target?.operation)) {
            at = at ? perform(step, at, opName) : null;
            if (!at) return null;
          }
          const to = verdicts.held.goto === null ? null : byId.get(verdicts.held.goto);
          if (to === undefined) return null;
          if (to && to.number <= step.number) {
            fail(step, `step ${step.id}: the branch the document requires (${verdicts.held.when}) returns to step ${to.id}`);
            return null;
          }
          return at ? visit(to, at) : null;
        }
        let best: Node | null = null;
        for (const succ of successors(step, verdicts.closed)) best = better(best, visit(succ, recorded));
        return best;
      }
      let best: Node | null = null;
      for (const succ of successors(step)) best = better(best, visit(succ, next));
      return best;
    };
    const decide = (step: SopStep, node: Node): { held: SopBranch | null; closed: Set<string>; record: Task["decisions"] } | null => {
      const known = new Map([...knows, ...node.bag]);
      for (const d of unit.workflow.decisions.filter((x) => x.at_step === step.id)) {
        const vs = d.branches.map((b) => {
          const c = parseCondition(b.when);
          return c ? evaluateCondition(c, known) : undefined;
        });
        if (vs.every((v) => v === undefined)) continue;
        const i = vs.findIndex((v) => v === true);
        const held = i >= 0 ? (d.branches[i] as SopBranch) : null;
        const done = new Set(held?.operations ?? []);
        const record = d.branches.flatMap((b, j) => {
          if (vs[j] === undefined) return [];
          const trap = versionTrap(ctx, parseCondition(b.when) as Condition, known, vs[j] as boolean);
          const outdated = trap ? { outdated: { document: trap.rule.document, version: trap.rule.version, clause: trap.rule.id, value: trap.value } } : {};
          return [{ workflow: unit.workflow.id, ...tag, decision: d.id, at_step: step.id, when: b.when, held: j === i, operations: j === i ? [...b.operations] : b.operations.filter((o) => !done.has(o)), ...outdated }];
        });
        return { held, closed: new Set(d.branches.filter((_, j) => vs[j] === false).map((b) => b.when)), record };
      }
      return null;
    };
    const perform = (step: SopStep, node: Node, branchOp?: string): Node | null => {
      const opName = branchOp ?? step.operation;
      const op = opName ? index.ops.get(opName) : undefined;
      if (!op) return { ...node, step };
      if (op.side === "customer") {
        if (!op.approves) return { ...node, step };
        const proposer = [...node.actions].reverse().find((a) => a.type === "call" && index.ops.get(a.operation)?.proposes?.kind === op.approves);
        if (!proposer || proposer.type !== "call") {
          fail(step, `step ${step.id}: nothing to approve`);
          return null;
        }
        const action: PlanAction = { type: "approve", proposal_of: proposer.operation, workflow: unit.workflow.id, step: step.id, why: step.text };
        const approved = tryBlock(node, step, [...readsFor(node, step, undefined), action], op, null);
        return approved ? renew(approved, step, op, proposer) : null;
      }
      const note = `${unit.workflow.title}: ${op.description}`;
      const knowsNow = node.corrected.size > 0 ? new Map([...knows, ...node.corrected]) : knows;
      const binding = bindArgs(op, node.bag, knowsNow, note);
      if (!binding.ok) {
        if (op.access === "read") return { ...node, step }; // a read the agent cannot make is skipped, not a blocker
        fail(step, `step ${step.id} (${op.name}): no value for ${binding.missing}`);
        return null;
      }
      // A customer value equal to the subject row's current column of the same name is what the
      // customer already has, not what they want: a second binding asks for a new value instead.
      const current = new Map(Object.entries(unit.row).filter(([k]) => op.params[k]?.source === "customer"));
      const fresh = bindArgs(op, node.bag, knowsNow, note, current);
      const candidates = [binding, ...(fresh.ok && JSON.stringify(fresh.args) !== JSON.stringify(binding.args) ? [fresh] : [])];
      for (const b of candidates) {
        const out = tryBinding(node, step, op, b);
        if (out) return out;
      }
      // A read that fails is not a dead end: the agent learns nothing and goes on.
      return op.access === "read" ? { ...node, step } : null;
    };
    // A correction right after an approval (scenario renewal): the same proposer with the corrected
    // term, and a new approval, before the procedure goes on. The stale approval stays in the state.
    const renew = (node: Node, step: SopStep, approver: Operation, proposer: Extract<PlanAction, { type: "call" }>): Node | null => {
      const r = renewals.find((x) => x.kind === approver.approves && x.param in proposer.args && JSON.stringify(proposer.args[x.param]) !== JSON.stringify(x.value) && !node.corrected.has(x.param));
      const proposerOp = index.ops.get(proposer.operation);
      if (!r || !proposerOp?.proposes) return node;
      const args = { ...proposer.args, [r.param]: r.value };
      const call: PlanAction = { type: "call", operation: proposer.operation, args, workflow: unit.workflow.id, step: proposer.step, why: `The customer corrected ${r.param.replace(/_/g, " ")} right after approving: the corrected terms need a proposal of their own and a new approval` };
      const again: PlanAction = { type: "approve", proposal_of: proposer.operation, workflow: unit.workflow.id, step: step.id, why: step.text };
      const corrected = new Map(node.corrected).set(r.param, r.value);
      const approvals = [...node.approvals, { kind: proposerOp.proposes.kind, terms: termsOf(proposerOp.proposes.terms, args) }];
      return tryBlock({ ...node, corrected, approvals }, step, [call, again], approver, null);
    };
    // The golden trace consults the documents it follows, ahead of each block (document-reads.ts).
    const readsFor = (node: Node, step: SopStep, op: Operation | undefined): PlanAction[] => documentReads(ctx, index, customerId, node.actions, { workflow: unit.workflow, step: step.id, operation: op });
    const tryBinding = (node: Node, step: SopStep, op: Operation, binding: Extract<ReturnType<typeof bindArgs>, { ok: true }>): Node | null => {
      const asks: PlanAction[] = [];
      const facts = [...node.facts];
      for (const f of binding.facts) {
        if (facts.some((x) => x.param === f.param)) continue;
        facts.push({ param: f.param, value: f.value, description: op.params[f.param]?.description ?? f.param });
        asks.push({ type: "ask", fact: f.param, topic: topicOf(f.param, op.params[f.param]?.description ?? ""), workflow: unit.workflow.id, step: step.id, why: `${op.name} needs ${f.param}, which only the customer knows` });
      }
      const call: PlanAction = { type: "call", operation: op.name, args: binding.args, workflow: unit.workflow.id, step: step.id, why: step.text };
      const approvals = op.proposes ? [...node.approvals, { kind: op.proposes.kind, terms: termsOf(op.proposes.terms, binding.args) }] : node.approvals;
      const withFacts = { ...node, facts, approvals };
      const reads = readsFor(node, step, op);
      for (const wait of [0, ...(op.access === "write" ? RETRY_WAITS : [])]) {
        const block: PlanAction[] = [...reads, ...asks, ...(wait > 0 ? [{ type: "wait" as const, minutes: wait, workflow: unit.workflow.id, step: step.id, why: `${op.name} was refused; the procedure waits for the pending item` }] : []), call];
        const out = tryBlock(withFacts, step, block, op, call);
        if (out) return out;
      }
      return null;
    };
    const tryBlock = (node: Node, step: SopStep, block: PlanAction[], op: Operation, call: PlanAction | null): Node | null => {
      budget--;
      const actions = [...node.actions, ...block];
      const run = executePlan(ctx, draft(node.facts, node.approvals), actions, { role: "golden" });
      try {
        const tail = run.outcomes.slice(node.actions.length);
        const bad = tail.find((o) => o.action.type !== "ask" && o.outcome?.status !== "executed");
        if (bad) {
          fail(step, `step ${step.id} (${op.name}): ${bad.outcome?.reason ?? "not executed"}`);
          return null;
        }
        const last = tail[tail.length - 1];
        const isWrite = op.access === "write" && op.side === "agent";
        if (call && isWrite && !op.proposes && last?.outcome && last.outcome.changes.length === 0) {
          // A golden write that changes nothing proves nothing: the unit is infeasible, with why.
          fail(step, `step ${step.id} (${op.name}): the write changes no row${unchangedBecause(call, unit)}`);
          return null;
        }
        const bag = new Map(node.bag);
        if (call && last?.outcome) learn(bag, last.outcome.result);
        return { ...node, step, actions, bag, wrote: node.wrote || isWrite, lastWrite: isWrite ? actions.length - 1 : node.lastWrite };
      } finally {
        run.close();
      }
    };
    found = visit(first, { ...start, bag, wrote: false, lastWrite: -1 });
    if (!found) return { reason: `workflow ${unit.workflow.id} on ${unit.table.name} ${String(unit.key)}: ${budget <= 0 ? "search budget exhausted" : ((failure as { text: string } | null)?.text ?? "no path through the procedure executed a write")}` };
    terminals.push(found.lastWrite);
    if ("unit" in tag) found = { ...found, actions: found.actions.map((a, i) => (i < start.actions.length ? a : { ...a, ...tag })) };
    start = found;
  }
  // A branch whose outcome names no operation stands for the operation of the step it leads to. A
  // branch taken requires it (when the plan ran it there): that is what following the branch did.
  // A branch not taken forbids it when it is an agent write the plan never runs, in any piece of the
  // task ("otherwise record a new set" not taken: no new set is recorded).
  const workflowIds = units.map((u) => u.workflow.id);
  const decisions = start.decisions.map((d) => {
    if (d.operations.length > 0) return d;
    const ui = unitIndex(d, workflowIds);
    const wf = units[ui]?.workflow;
    const goto = wf?.decisions.find((x) => x.id === d.decision)?.branches.find((b) => b.when === d.when)?.goto;
    const target = goto ? wf?.steps.find((s) => s.id === goto) : undefined;
    const op = target?.operation ? index.ops.get(target.operation) : undefined;
    if (!op || op.side !== "agent") return d;
    if (d.held) {
      const ran = start.actions.some((a) => a.type === "call" && a.operation === op.name && unitIndex(a, workflowIds) === ui && a.step === target?.id);
      return ran ? { ...d, operations: [op.name] } : d;
    }
    // Not forbidden when any piece of the task runs it (a handover records the history an admission's branch skips).
    const runs = start.actions.some((a) => a.type === "call" && a.operation === op.name);
    return op.access === "write" && !runs ? { ...d, operations: [op.name] } : d;
  });
  // The customer knows their own facts whether or not the right path needs them: what a branch not
  // taken would ask for (a patient gives a pain score when asked) is in the scenario too, so an agent
  // that goes down the wrong branch fails on the branch check, not on a customer who cannot answer.
  const facts = [...start.facts];
  for (const d of decisions) {
    const unit = d.held ? undefined : units[unitIndex(d, workflowIds)];
    if (!unit) continue;
    const knows = customerKnowledge(unit);
    for (const name of d.operations) {
      for (const [param, p] of Object.entries(index.ops.get(name)?.params ?? {})) {
        const value = knows.get(param);
        if (p.source !== "customer" || value === undefined || facts.some((f) => f.param === param)) continue;
        facts.push({ param, value, description: p.description });
      }
    }
  }
  return { actions: start.actions, facts, approvals: start.approvals, terminals, decisions };
}

/** Why a write changed nothing, when its arguments are the subject row's current values of the same name. */
function unchangedBecause(call: PlanAction, unit: PlanUnit): string {
  if (call.type !== "call") return "";
  const same = Object.entries(call.args).filter(([k, v]) => k !== unit.table.primary_key && k in unit.row && JSON.stringify(unit.row[k]) === JSON.stringify(v));
  if (same.length === 0) return " (every value it sets is already in the state)";
  return ` (${same.map(([k]) => `${k} is bound from the current ${unit.table.name}.${k}`).join(", ")}, so nothing changes; a value the customer wants must come from the scenario's private facts, not from a same-named column)`;
}

/** Columns an agent can see. */
export function visibleColumns(table: Table, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of table.columns) if (!c.hidden) out[c.name] = row[c.name];
  return out;
}

/** What the customer knows: every column (hidden ones too) of the subject row and its related rows. */
function customerKnowledge(unit: PlanUnit): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const r of [...unit.related].reverse()) for (const [k, v] of Object.entries(r)) if (v !== null) out.set(k, v);
  for (const [k, v] of Object.entries(unit.row)) if (v !== null) out.set(k, v);
  return out;
}

/** The leading words of a parameter's description, lower-case, up to the first `.`, `(`, `;` or `:` ("any diarrhoea or vomiting in the last 48 hours"). */
export function rawLeadOf(description: string): string {
  return description.replace(/[.(;:].*$/s, "").trim().toLowerCase();
}

/**
 * The leading words of a parameter's description as a customer names the fact in a statement ("the
 * reason for the cancellation"); empty when they hold a number ("pain score the patient gives, 0–10"):
 * in "The pain score the patient gives, 0 is 3." the number in the name would be read as the value.
 */
export function leadOf(description: string): string {
  const lead = rawLeadOf(description);
  return /\d/.test(lead) ? "" : lead;
}

/** How the agent and the customer name a fact: the parameter's words, e.g. `invoice ref` for `invoice_ref`. */
export function topicOf(param: string, description: string): string {
  const words = param.replace(/_/g, " ");
  const lead = rawLeadOf(description);
  return lead && !lead.includes(words) ? `${words} (${lead})` : words;
}
