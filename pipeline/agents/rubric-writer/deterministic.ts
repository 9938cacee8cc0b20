import { unitIndex, type AcceptanceCheck, type CheckProvenance, type RowChange, type Task } from "../../schemas/index.js";
import type { DomainContext, RubricWriter } from "../types.js";
import { WorldIndex } from "../plan/world-index.js";
import { executePlan } from "../plan/execute-plan.js";
import { fromReferencePlan } from "../plan/actions.js";
import { DomainRows } from "../plan/domain-rows.js";
import { customerProvenance, ruleProvenance, stepProvenance } from "./provenance.js";
import { relativeDeadlines, waitsForEvents } from "./timing-checks.js";

/** Columns whose final value depends on when the agent acted, not on what it did. */
const TIMING_COLUMN = /(_at|_minute|_time)$/;

/**
 * The rubric writer's embedded strategy. It runs the reference plan on a scratch copy of the task's
 * state (the golden trace does not exist yet) and writes checks from what the plan must achieve and
 * the rules that govern it: goal (each workflow's final write executed; each subject row's final
 * values), process (approvals bound to terms, invariants, facts obtained before use, each write
 * exactly as often as planned, dependent writes in order, literal deadlines), protection (other
 * customers, the customer's other rows, operations that would change the subjects otherwise).
 */
export class DeterministicRubricWriter implements RubricWriter {
  async writeChecks(ctx: DomainContext, task: Task): Promise<Task> {
    const index = new WorldIndex(ctx.world);
    const actions = fromReferencePlan(task.reference_plan);
    const run = executePlan(ctx, task, actions, { role: "golden", label: "rubric" });
    const rows = new DomainRows(ctx, index);
    try {
      const goal: AcceptanceCheck[] = [];
      const process: AcceptanceCheck[] = [];
      const protection: AcceptanceCheck[] = [];
      const objective = customerProvenance(task.id, "objective");
      const calls = run.outcomes.filter((o) => o.action.type === "call" && o.outcome?.status === "executed");
      const changes: RowChange[] = run.trace.events.flatMap((e) => e.changes);
      // Keys of rows the plan inserts are numbered by the episode (e.g. from the call index), so an
      // agent that works in another order gets other numbers: checks never pin them.
      const inserted = new Set(changes.filter((c) => c.before === null).map((c) => String(c.key)));
      const stableArgs = (args: Record<string, unknown>) => Object.fromEntries(Object.entries(args).filter(([, v]) => !inserted.has(String(v))));
      const subjects = subjectKeys(task, ctx, index).filter((s) => !inserted.has(String(s.key)));

      // Goal: the last write of each workflow ran, and each subject row ends as the plan leaves it.
      for (const [ui, wfId] of task.workflows.entries()) {
        const last = [...calls].reverse().find((o) => unitIndex(o.action, task.workflows) === ui && index.ops.get((o.action as { operation: string }).operation)?.access === "write");
        if (!last || last.action.type !== "call") continue;
        const op = index.ops.get(last.action.operation);
        const keyArgs = stableArgs(Object.fromEntries(Object.entries(last.action.args).filter(([k]) => index.tableByKey.has(k) && op?.params[k]?.source !== "customer")));
        goal.push(check(`goal-${wfId}-executed`, "goal", "action_executed", { operation: last.action.operation, args: keyArgs }, `${last.action.operation} is executed for ${Object.values(keyArgs).join(", ") || "the request"}.`, objective));
      }
      for (const { table, key } of subjects) {
        const t = index.tables.get(table);
        const before = rows.get(t!, key);
        const after = run.episode.read(`SELECT * FROM "${table}" WHERE "${t!.primary_key}" = ?`, [key])[0];
        if (!after) continue;
        const require = Object.keys(after)
          .filter((c) => !TIMING_COLUMN.test(c) && (before === null || JSON.stringify(before[c]) !== JSON.stringify(after[c])))
          .sort()
          .map((c) =>
            after[c] === null ? { column: c, op: "is_null" as const }
            : inserted.has(String(after[c])) ? { column: c, op: "not_null" as const }
            : { column: c, op: "=" as const, value: after[c] as string | number },
          );
        if (require.length === 0) continue;
        goal.push(check(`goal-${table}-${key}-final`, "goal", "final_row_state", { table, key, require }, `${table} ${key} ends with ${require.map((r) => `${r.column} ${r.op.replace("_", " ")} ${"value" in r ? String(r.value) : ""}`.trim()).join(", ")}.`, objective));
      }

      // Process.
      const writes = calls.filter((o) => o.action.type === "call" && index.ops.get(o.action.operation)?.access === "write");
      const seenApproval = new Set<string>();
      for (const w of writes) {
        if (w.action.type !== "call") continue;
        const op = index.ops.get(w.action.operation)!;
        // One check per approved execution when the task runs the operation on several objects (two
        // payments, each with its own approval): a dropped second approval must fail a check.
        const several = writes.filter((x) => x.action.type === "call" && x.action.operation === op.name).length > 1;
        const keys = several ? stableArgs(keyArgsOf(w.action.args, index)) : {};
        // A term the customer corrected after approving (a renewal): the required approved execution
        // carries the corrected value, so executing the terms first approved fails this check.
        const executed = w.action.args;
        const renewed = Object.fromEntries(task.scenario.renewals.filter((r) => op.requires_approval?.terms.includes(r.param) && r.param in executed).map((r) => [r.param, executed[r.param]]));
        const args = { ...keys, ...renewed };
        const id = `process-${op.name}-approved${several ? `-${Object.values(keys).join("-")}` : ""}`;
        if (op.requires_approval && !seenApproval.has(id)) {
          seenApproval.add(id);
          const rule = op.rules.find((r) => ctx.world.rules.find((x) => x.id === r)?.kind === "approval");
          const params = { operation: op.name, required: true, ...(Object.keys(args).length > 0 ? { args } : {}) };
          process.push(check(id, "process", "approval_before_execution", params, several ? `${op.name} for ${Object.values(keys).join(", ")} runs, preceded by the customer's approval of exactly its terms (as is every ${op.name}).` : `Every ${op.name} is preceded by the customer's approval of exactly its terms.`, provenanceOr(ctx, rule, task, w.action.workflow, w.action.step)));
        }
      }
      const countKey = (o: { operation: string; args: Record<string, unknown> }) => `${o.operation}|${JSON.stringify(keyArgsOf(o.args, index))}`;
      const counted = new Map<string, { operation: string; args: Record<string, unknown>; n: number; workflow: string | null; step: string | null }>();
      for (const w of writes) {
        if (w.action.type !== "call") continue;
        const k = countKey(w.action);
        const prev = counted.get(k);
        counted.set(k, { operation: w.action.operation, args: stableArgs(keyArgsOf(w.action.args, index)), n: (prev?.n ?? 0) + 1, workflow: w.action.workflow, step: w.action.step });
      }
      for (const c of [...counted.values()].sort((a, b) => countKey(a).localeCompare(countKey(b)))) {
        if (index.ops.get(c.operation)?.proposes) continue; // a re-proposal after a refusal is legitimate
        process.push(check(`process-${c.operation}-${Object.values(c.args).join("-") || "once"}-count`, "process", "execution_count", { operation: c.operation, args: c.args, min: c.n, max: c.n }, `${c.operation} runs exactly ${c.n} time(s) for ${Object.values(c.args).join(", ") || "the task"}.`, provenanceOr(ctx, undefined, task, c.workflow, c.step)));
      }
      for (let i = 1; i < writes.length; i++) {
        const a = writes[i - 1]!.action, b = writes[i]!.action;
        if (a.type !== "call" || b.type !== "call" || a.workflow === null || unitIndex(a, task.workflows) !== unitIndex(b, task.workflows) || a.operation === b.operation) continue;
        process.push(check(`process-${a.operation}-before-${b.operation}`, "process", "executed_in_order", { before: a.operation, after: b.operation, before_args: stableArgs(keyArgsOf(a.args, index)), after_args: stableArgs(keyArgsOf(b.args, index)) }, `${a.operation} comes before ${b.operation}, as the procedure orders them.`, provenanceOr(ctx, undefined, task, b.workflow, b.step)));
      }
      // Facts the reference plan uses must be asked for first; a fact the customer knows but the
      // right path never needs (what a branch not taken would ask for) has no such check.
      const planArgs = new Set(task.reference_plan.flatMap((p) => (p.operation === "ask" ? [] : Object.keys(p.args ?? {}))));
      for (const f of task.scenario.private_facts.filter((x) => planArgs.has(x.param ?? x.id))) {
        process.push(check(`process-fact-${f.id}`, "process", "fact_elicited_before_use", { fact: f.id }, `The ${f.id.replace(/_/g, " ")} is obtained from the customer before it is used.`, customerProvenance(task.id, f.id)));
      }
      // Branches: what each evaluated decision requires (the branch taken done, the others not).
      for (const d of task.decisions) {
        const wf = ctx.sop.workflows.find((w) => w.id === d.workflow);
        const decision = wf?.decisions.find((x) => x.id === d.decision);
        if (!wf || !decision || d.operations.length === 0) continue;
        const table = index.subjectTable(wf);
        // This piece of work's subject: the key its own calls pass (two pieces of a task may share a table).
        const own = task.reference_plan.find((p) => unitIndex(p, task.workflows) === unitIndex(d, task.workflows) && p.args[table.primary_key] !== undefined);
        const key = (own?.args[table.primary_key] as string | number | undefined) ?? subjects.find((x) => x.table === table.name)?.key;
        const args = key !== undefined && d.operations.every((o) => index.ops.get(o)?.params[table.primary_key]) ? { [table.primary_key]: key } : {};
        const branchRule = decision.branches.find((b) => b.when === d.when)?.rule;
        const base = (branchRule ? ruleProvenance(ctx, branchRule) : null) ?? { source: "rule" as const, rule: decision.provenance.clause ?? `${wf.id}/${d.decision}`, at: decision.provenance };
        // A version trap: the check names both the clause in force and the outdated one that would lead elsewhere.
        const trap = d.outdated ? ctx.sop.rules.find((r) => r.id === d.outdated?.clause && r.document === d.outdated.document && r.version === d.outdated.version) : undefined;
        const current = trap ? ctx.sop.rules.find((r) => r.id === trap.id && r.document === trap.document && r.status === "current") : undefined;
        const prov = trap && base.source === "rule" ? { ...base, ...(current ? { at: current.provenance } : {}), outdated: trap.provenance } : base;
        process.push(check(`process-${d.workflow}-${d.decision}-${d.held ? "taken" : "not-taken"}-${d.operations.join("-")}`, "process", "branch_followed", { workflow: d.workflow, decision: d.decision, when: d.when, held: d.held, operations: d.operations, args: stableArgs(args) }, `${d.held ? `${d.operations.join(", ")} is done, because ${d.when}.` : `${d.operations.join(", ")} is not done: it is not the case that ${d.when}.`}${trap ? ` Version ${trap.version} of ${trap.document} (${trap.id}: ${d.outdated?.value}) is not in force.` : ""}`, prov));
      }
      const touched = new Set(changes.map((c) => c.table));
      for (const rule of ctx.world.rules.filter((r) => r.kind === "invariant" && r.invariant && touched.has(r.invariant.table))) {
        const prov = ruleProvenance(ctx, rule.id);
        if (prov) process.push(check(`process-${rule.id.toLowerCase()}`, "process", "invariant_holds", { rule: rule.id }, rule.description, prov));
      }
      for (const w of writes) {
        if (w.action.type !== "call") continue;
        const op = index.ops.get(w.action.operation)!;
        for (const pre of op.preconditions) {
          const m = /:now\s*(<=?)\s*(\d+)\b/.exec(pre.sql);
          if (!m) continue;
          const by = Number(m[2]) - (m[1] === "<" ? 1 : 0);
          const id = `process-${op.name}-deadline-${by}`;
          if (process.some((p) => p.id === id)) continue;
          process.push(check(id, "process", "deadline_met", { operation: op.name, by_minute: by, args: stableArgs(keyArgsOf(w.action.args, index)) }, `${op.name} runs no later than minute ${by}.`, provenanceOr(ctx, pre.rule, task, w.action.workflow, w.action.step)));
        }
      }

      for (const c of [...relativeDeadlines(ctx, index, run.trace, stableArgs), ...waitsForEvents(ctx, index, task, run.trace, stableArgs)]) if (!process.some((p) => p.id === c.id)) process.push(c);

      // Protection.
      protection.push(check("protect-other-customers", "protection", "other_customers_untouched", {}, "No other customer's records are changed.", customerProvenance(task.id, "scope")));
      const changedKeys = new Set(changes.map((c) => `${c.table}|${String(c.key)}`));
      const subjectTables = [...new Set(subjects.map((s) => s.table))].sort();
      for (const table of subjectTables) {
        const t = index.tables.get(table)!;
        if (table === index.customerTable.name) continue;
        // The task's own targets (its subject rows, and every row a write of the plan names) are
        // never "other" rows, even when a write left them unchanged.
        const targets = new Set([...subjects.filter((x) => x.table === table).map((x) => String(x.key)), ...writes.flatMap((w) => (w.action.type === "call" && w.action.args[t.primary_key] !== undefined ? [String(w.action.args[t.primary_key])] : []))]);
        const spare = rows.owned(t, task.customer_id).map((r) => r[t.primary_key] as string | number).filter((k) => !changedKeys.has(`${table}|${String(k)}`) && !targets.has(String(k)));
        if (spare.length > 0) protection.push(check(`protect-${table}-others`, "protection", "protected_rows_unchanged", { table, keys: spare }, `The customer's other ${table} (${spare.join(", ")}) stay untouched.`, customerProvenance(task.id, "scope")));
      }
      const used = new Set(writes.map((w) => (w.action as { operation: string }).operation));
      const prohibited = ctx.world.operations
        .filter((o) => o.side === "agent" && o.access === "write" && !used.has(o.name) && !o.proposes && index.writtenTables(o.name).some((t) => subjectTables.includes(t)))
        .map((o) => o.name)
        .sort();
      if (prohibited.length > 0) protection.push(check("protect-no-other-actions", "protection", "prohibited_operations_absent", { operations: prohibited }, `None of ${prohibited.join(", ")} is carried out: the customer did not ask for it.`, customerProvenance(task.id, "objective")));

      if (goal.length === 0) throw new Error(`task ${task.id}: the reference plan reaches no goal the rubric writer can check`);
      return { ...task, checks: uniqueIds({ goal, process, protection }) };
    } finally {
      rows.close();
      run.close();
    }
  }
}

function check(id: string, group: AcceptanceCheck["group"], kind: string, params: Record<string, unknown>, description: string, provenance: CheckProvenance): AcceptanceCheck {
  return { id, group, kind, params, description, provenance };
}

/** Arguments that identify the objects a call acts on (primary keys), for counting and ordering. */
function keyArgsOf(args: Record<string, unknown>, index: WorldIndex): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([k]) => index.tableByKey.has(k)));
}

function provenanceOr(ctx: DomainContext, ruleId: string | undefined, task: Task, workflow: string | null, step: string | null): CheckProvenance {
  const byRule = ruleId ? ruleProvenance(ctx, ruleId) : null;
  if (byRule) return byRule;
  const wf = ctx.sop.workflows.find((w) => w.id === workflow);
  return wf ? stepProvenance(wf, step) : customerProvenance(task.id, "objective");
}

/** The subject rows of a task: the keys its plan's calls pass for tables of its workflows' subjects. */
function subjectKeys(task: Task, ctx: DomainContext, index: WorldIndex): Array<{ table: string; key: string | number }> {
  const out: Array<{ table: string; key: string | number }> = [];
  for (const [ui, wfId] of task.workflows.entries()) {
    const wf = ctx.sop.workflows.find((w) => w.id === wfId);
    if (!wf) continue;
    const table = index.subjectTable(wf);
    const step = task.reference_plan.find((p) => unitIndex(p, task.workflows) === ui && p.args[table.primary_key] !== undefined);
    const key = (step?.args[table.primary_key] ?? (table.name === index.customerTable.name ? task.customer_id : undefined)) as string | number | undefined;
    if (key !== undefined && !out.some((o) => o.table === table.name && o.key === key)) out.push({ table: table.name, key });
  }
  return out;
}

/** Check ids are unique within a task: a repeated id gets `-2`, `-3`, … in order. */
function uniqueIds(checks: Task["checks"]): Task["checks"] {
  const seen = new Map<string, number>();
  const fix = (c: AcceptanceCheck): AcceptanceCheck => {
    const n = (seen.get(c.id) ?? 0) + 1;
    seen.set(c.id, n);
    return n === 1 ? c : { ...c, id: `${c.id}-${n}` };
  };
  return { goal: checks.goal.map(fix), process: checks.process.map(fix), protection: checks.protection.map(fix) };
}
