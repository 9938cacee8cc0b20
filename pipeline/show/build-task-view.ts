import { FoundryError } from "../core/errors.js";
import type { AcceptanceCheck, CheckResult, PlanStep, RowChange, Task, Trace, TraceEvent } from "../schemas/index.js";
import { createCheckContext } from "../world/check-context.js";
import { runChecks } from "../../validation/checks/index.js";
import { initialStateFor } from "../../validation/initial-states.js";
import { goldenFile, violationFile, violationLabel } from "../../validation/audit/release-layout.js";
import { documentKey } from "../../validation/audit/knowledge-document.js";
import { nearIds } from "./near-ids.js";
import { quoteClause } from "./quote-clause.js";
import type { ShowDomain, ShowRelease } from "./open-release.js";
import { TaskView, type CheckView, type DocumentView, type EventView, type QuotedClause, type RowChangeView, type ViolationView } from "./task-view.js";

/** A task of the release with its domain; unknown ids are refused naming the nearest ids that exist. */
export function findTask(release: ShowRelease, id: string): { domain: ShowDomain; task: Task } {
  for (const domain of release.domains.values()) {
    const task = domain.parsed.tasks.find((t) => t.id === id);
    if (task) return { domain, task };
  }
  const all = [...release.domains.values()].flatMap((d) => d.parsed.tasks.map((t) => t.id));
  const sim = release.simulated.find((d) => release.manifest.files[`domains/${d}/tasks/${id}.json`] !== undefined);
  if (sim) {
    throw new FoundryError("SHOW_SIMULATED_ONLY", `${id} is a task of the simulated-only domain ${sim}: synth show views executable tasks (world, checks, golden trace); read domains/${sim}/tasks/${id}.json, trajectories/ and verdicts/ in the release`, { file: release.dir }, id);
  }
  throw new FoundryError("TASK_NOT_FOUND", `no task ${id} in ${release.manifest.name}@${release.manifest.version}; nearest: ${nearIds(id, all).join(", ")}`, { file: release.dir }, id);
}

/** The release's checks run on a trace from the task's s0, by check id. */
export function judgeTrace(domain: ShowDomain, task: Task, trace: Trace): Map<string, CheckResult> {
  const world = domain.parsed.world!;
  const ctx = createCheckContext(world, task, initialStateFor({ base: domain.base, world }, task));
  try {
    return new Map(runChecks(task, trace, ctx).map((r) => [r.check, r]));
  } finally {
    ctx.close();
  }
}

/**
 * Which event carries out which reference-plan step: steps are matched in order to the next event
 * of their kind (an operation by name, `ask` to the agent's question, an approval, a wait).
 */
export function planByEvent(plan: readonly PlanStep[], events: readonly TraceEvent[]): Map<number, PlanStep> {
  const out = new Map<number, PlanStep>();
  let at = 0;
  for (const step of plan) {
    const fits = (e: TraceEvent): boolean => {
      if (step.operation === "ask") return e.kind === "agent_message";
      if (step.operation === "wait") return e.kind === "wait";
      if (step.actor === "customer") return e.kind === "approval" || e.kind === "customer_action";
      return (e.kind === "tool_call" || e.kind === "proposal") && e.name === step.operation;
    };
    const i = events.findIndex((e, k) => k >= at && fits(e));
    if (i < 0) continue;
    out.set((events[i] as TraceEvent).index, step);
    at = i + 1;
  }
  return out;
}

function rowChange(c: RowChange): RowChangeView {
  const op = c.before === null ? "insert" : c.after === null ? "delete" : "update";
  const before = c.before ?? {};
  const after = c.after ?? {};
  const cols = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const columns = cols
    .filter((k) => op !== "update" || JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map((k) => ({ column: k, before: c.before === null ? null : (before[k] ?? null), after: c.after === null ? null : (after[k] ?? null) }));
  return { table: c.table, key: c.key, op, columns };
}

function stepClause(domain: ShowDomain, step: PlanStep | undefined): QuotedClause | null {
  if (!step?.workflow || !step.sop_step) return null;
  const wf = domain.sop?.workflows.find((w) => w.id === step.workflow);
  const s = wf?.steps.find((x) => x.id === step.sop_step);
  return s ? quoteClause(domain.lines, s.provenance) : null;
}

function requirementText(task: Task, requirement: string): string | null {
  if (requirement === "objective") return task.objective;
  const pref = task.scenario.preferences.find((p) => p.id === requirement);
  if (pref) return pref.statement;
  return task.scenario.private_facts.find((f) => f.id === requirement)?.statement ?? null;
}

function violationsFor(domain: ShowDomain, task: Task): Array<{ file: string; operator: string; description: string | null; target: string | null; trace: Trace }> {
  const report = domain.parsed.validation?.tasks.find((t) => t.task === task.id);
  const stored = new Map((domain.parsed.violations.get(task.id) ?? []).map((v) => [v.file, v.trace]));
  const seen = new Map<string, number>();
  const out = [];
  for (const m of report?.mutants ?? []) {
    const n = (seen.get(m.operator) ?? 0) + 1;
    seen.set(m.operator, n);
    const file = violationFile(domain.parsed.id, task.id, violationLabel(m.operator, n));
    const trace = stored.get(file);
    if (trace) out.push({ file, operator: m.operator, description: m.description ?? null, target: m.target_check, trace });
  }
  return out;
}

function checkView(domain: ShowDomain, task: Task, check: AcceptanceCheck, verdict: CheckResult | undefined, violations: ViolationView[]): CheckView {
  const p = check.provenance;
  const provenance =
    p.source === "rule"
      ? { source: "rule" as const, rule: p.rule, clause: quoteClause(domain.lines, p.at), outdated: p.outdated ? quoteClause(domain.lines, p.outdated) : null }
      : { source: "customer" as const, requirement: p.at.requirement, text: requirementText(task, p.at.requirement) };
  return {
    id: check.id,
    group: check.group,
    kind: check.kind,
    description: check.description,
    provenance,
    verdict: verdict ? { passed: verdict.passed, reason: verdict.reason, event: verdict.event } : { passed: false, reason: "the check runner returned no result for this check", event: null },
    violations,
  };
}

function documentView(domain: ShowDomain, key: string, role: DocumentView["role"]): DocumentView {
  const d = domain.parsed.documents.find((x) => documentKey(x) === key);
  if (!d) return { key, role, title: null, kind: null, effective_from: null, effective_to: null, scope: null };
  return { key, role, title: d.title, kind: d.kind, effective_from: d.effective_from, effective_to: d.effective_to, scope: { segments: d.scope.segments, regions: d.scope.regions, products: d.scope.products, note: d.scope.note ?? null } };
}

function eventView(e: TraceEvent, step: PlanStep | undefined, clause: QuotedClause | null, decided: CheckResult[]): EventView {
  const result = e.result === undefined ? null : JSON.stringify(e.result);
  return {
    index: e.index,
    time: e.time,
    actor: e.actor,
    kind: e.kind,
    name: e.name,
    args: e.args,
    status: e.status,
    text: e.text ?? null,
    reason: e.reason ?? null,
    result,
    result_short: result === null ? null : result.length > 120 ? `${result.slice(0, 117)}...` : result,
    facts: e.facts,
    changes: e.changes.map(rowChange),
    plan: step ? { step: step.step, why: step.why, workflow: step.workflow, sop_step: step.sop_step } : null,
    clause,
    checks: decided.map((r) => r.check),
    failed: decided.filter((r) => !r.passed).map((r) => ({ check: r.check, reason: r.reason })),
  };
}

/** What the trace shown is: the golden trace, or an evaluated episode. */
export type TraceSource = TaskView["trace"];

/**
 * The review view of one task on one trace: the task, its documents, each event with its plan
 * step, clause, row changes and the checks it decided, and every check with its provenance, its
 * verdict on this trace and the violation traces aimed at it (re-judged now). Schema-checked.
 */
export function buildTaskView(release: ShowRelease, domain: ShowDomain, task: Task, trace: Trace, source?: TraceSource): TaskView {
  const verdicts = judgeTrace(domain, task, trace);
  const plan = planByEvent(task.reference_plan, trace.events);
  const checks = [...task.checks.goal, ...task.checks.process, ...task.checks.protection];
  const mutants = violationsFor(domain, task);
  const views = checks.map((c) => {
    const aimed = mutants.filter((m) => m.target === c.id);
    const judged = aimed.length > 0 ? aimed.map((m) => ({ m, r: judgeTrace(domain, task, m.trace).get(c.id) })) : [];
    const violations = judged.map(({ m, r }) => ({ file: m.file, operator: m.operator, description: m.description, verdict: r ? { passed: r.passed, reason: r.reason, event: r.event } : { passed: true, reason: "no result for this check", event: null } }));
    return checkView(domain, task, c, verdicts.get(c.id), violations);
  });
  const events = trace.events.map((e) => {
    const step = plan.get(e.index);
    const decided = checks.map((c) => verdicts.get(c.id)).filter((r): r is CheckResult => r !== undefined && r.event === e.index);
    return eventView(e, step, stepClause(domain, step), decided);
  });
  const view: TaskView = {
    release: { name: release.manifest.name, version: release.manifest.version, root_hash: release.manifest.root_hash },
    trace: source ?? { kind: "golden", file: goldenFile(domain.parsed.id, task.id) },
    task: {
      id: task.id,
      domain: task.domain,
      title: task.title,
      objective: task.objective,
      as_of: task.as_of,
      customer_id: task.customer_id,
      difficulty: task.difficulty,
      persona: task.scenario.persona,
      opening_request: task.scenario.opening_request,
      private_facts: task.scenario.private_facts.map((f) => ({ id: f.id, statement: f.statement, value: f.value, hidden_from_agent: true as const, disclose_when: f.disclose_when })),
      preferences: task.scenario.preferences,
      approvals: task.scenario.approves,
      scheduled_events: task.scheduled_events as Array<Record<string, unknown>>,
    },
    documents: [...task.documents.relevant.map((k) => documentView(domain, k, "in_force")), ...task.documents.distractors.map((k) => documentView(domain, k, "distractor"))],
    events,
    checks: views,
  };
  return TaskView.parse(view);
}
