import type { CheckView, EventView, QuotedClause, TaskView } from "./task-view.js";

/** Terminal styling: ANSI bold/dim when writing to a TTY, nothing otherwise. */
export interface TextStyle {
  color: boolean;
}

const json = (v: unknown): string => JSON.stringify(v) ?? "null";

/** `document@version lines a–b (clause)`: how every view names a clause. */
export function clauseRef(c: QuotedClause): string {
  return `${c.document}@${c.version} lines ${c.line_start}-${c.line_end}${c.clause ? ` (${c.clause})` : ""}`;
}

function quoted(c: QuotedClause, indent: string): string[] {
  if (c.text === null) return [`${indent}(the release holds no text for these lines)`];
  return c.text.split("\n").map((l, i) => `${indent}${String(c.line_start + i).padStart(4)} | ${l}`);
}

function eventLines(e: EventView, checks: ReadonlyMap<string, CheckView>): string[] {
  const out: string[] = [];
  const args = Object.keys(e.args).length > 0 ? json(e.args) : "";
  out.push(`[${e.index}] t=${e.time} ${e.actor} ${e.kind} ${e.name}${args ? ` ${args}` : ""} → ${e.status}`);
  if (e.text !== null) out.push(`    says: ${e.text}`);
  if (e.facts.length > 0) out.push(`    discloses: ${e.facts.join(", ")}`);
  if (e.reason !== null) out.push(`    reason: ${e.reason}`);
  if (e.result_short !== null) out.push(`    result: ${e.result_short}`);
  for (const c of e.changes) {
    out.push(`    ${c.op} ${c.table}[${c.key}]`);
    for (const col of c.columns) out.push(c.op === "insert" ? `      ${col.column} = ${json(col.after)}` : c.op === "delete" ? `      ${col.column} was ${json(col.before)}` : `      ${col.column}: ${json(col.before)} → ${json(col.after)}`);
  }
  if (e.plan) out.push(`    plan step ${e.plan.step}${e.plan.workflow ? ` (${e.plan.workflow}/${e.plan.sop_step})` : ""}: ${e.plan.why}`);
  if (e.clause) {
    out.push(`    clause ${clauseRef(e.clause)}:`);
    out.push(...quoted(e.clause, "      "));
  }
  for (const id of e.checks) {
    const c = checks.get(id);
    if (!c) continue;
    out.push(`    decides ${c.group} check ${id}: ${c.verdict.passed ? "passed" : "FAILED"}`);
    for (const v of c.violations) out.push(`      caught in ${v.file} (${v.operator}): ${v.verdict.passed ? "passed (not caught)" : `failed: ${v.verdict.reason}`}`);
  }
  for (const f of e.failed) out.push(`    FAILED ${f.check}: ${f.reason}`);
  return out;
}

function checkLines(c: CheckView): string[] {
  const out = [`${c.id} [${c.kind}] ${c.verdict.passed ? "passed" : "FAILED"}: ${c.description}`];
  if (c.provenance.source === "rule") {
    out.push(`    rule ${c.provenance.rule}, clause ${clauseRef(c.provenance.clause)}:`);
    out.push(...quoted(c.provenance.clause, "      "));
    if (c.provenance.outdated) {
      out.push(`    trap: the version not in force, ${clauseRef(c.provenance.outdated)}:`);
      out.push(...quoted(c.provenance.outdated, "      "));
    }
  } else {
    out.push(`    customer requirement ${c.provenance.requirement}${c.provenance.text !== null ? `: ${c.provenance.text}` : ""}`);
  }
  out.push(`    decided ${c.verdict.event === null ? "by the trace as a whole" : `at event ${c.verdict.event}`}: ${c.verdict.reason}`);
  for (const v of c.violations) out.push(`    violation ${v.file} (${v.operator}): ${v.verdict.passed ? "passed (not caught)" : "failed"}: ${v.verdict.reason}`);
  if (c.violations.length === 0) out.push("    no violation trace targets this check");
  return out;
}

/** The whole view as plain lines for a terminal (headings bold when `style.color`). */
export function renderText(view: TaskView, style: TextStyle = { color: false }): string {
  const h = (s: string) => (style.color ? `\x1b[1m${s}\x1b[0m` : s);
  const t = view.task;
  const out: string[] = [];
  const traceName = view.trace.kind === "golden" ? `golden trace ${view.trace.file}` : `episode ${view.trace.episode} (${view.trace.agent}, ${view.trace.condition}, strict success ${view.trace.strict_success ? "yes" : "no"}) ${view.trace.file}`;
  out.push(h(`Task ${t.id} (${t.domain}) — ${t.title}`), `release ${view.release.name}@${view.release.version} root ${view.release.root_hash}`, `trace: ${traceName}`, "");
  out.push(`objective: ${t.objective}`, `as of: ${t.as_of}   customer: ${t.customer_id}   difficulty: ${t.difficulty ?? "not calibrated"}`, `persona: ${t.persona}`, `opening request: ${t.opening_request}`);
  out.push("", h("Private facts (hidden from the agent; disclosed only when asked)"));
  for (const f of t.private_facts) out.push(`  ${f.id} = ${json(f.value)} [hidden from agent] "${f.statement}" (asked about: ${f.disclose_when.join(", ")})`);
  if (t.private_facts.length === 0) out.push("  none");
  out.push("", h("Preferences"));
  for (const p of t.preferences) out.push(`  ${p.id}: ${p.statement}`);
  if (t.preferences.length === 0) out.push("  none");
  out.push("", h("Approvals the customer will give (only these exact terms)"));
  for (const a of t.approvals) out.push(`  ${a.kind} ${json(a.terms)}`);
  if (t.approvals.length === 0) out.push("  none");
  out.push("", h("Scheduled events of the task"));
  for (const e of t.scheduled_events) out.push(`  ${json(e)}`);
  if (t.scheduled_events.length === 0) out.push("  none");
  out.push("", h("Documents"));
  for (const d of view.documents) {
    const period = d.effective_from === null ? "not in the release" : `${d.effective_from} to ${d.effective_to ?? "open"}`;
    const scope = d.scope ? [d.scope.segments.length ? `segments ${d.scope.segments.join(", ")}` : "", d.scope.regions.length ? `regions ${d.scope.regions.join(", ")}` : "", d.scope.products.length ? `products ${d.scope.products.join(", ")}` : "", d.scope.note ?? ""].filter(Boolean).join("; ") : "";
    out.push(`  ${d.role === "in_force" ? "in force  " : "distractor"} ${d.key}${d.title ? ` "${d.title}"` : ""} (${period})${scope ? ` scope: ${scope}` : ""}`);
  }
  const checks = new Map(view.checks.map((c) => [c.id, c]));
  out.push("", h(`Trace, event by event (${view.events.length} events)`));
  for (const e of view.events) out.push(...eventLines(e, checks));
  const whole = view.checks.filter((c) => !c.verdict.passed && c.verdict.event === null);
  if (whole.length > 0) {
    out.push("", h("Failed checks no single event decided"));
    for (const c of whole) out.push(`  FAILED ${c.id}: ${c.verdict.reason}`);
  }
  for (const group of ["goal", "process", "protection"] as const) {
    const g = view.checks.filter((c) => c.group === group);
    out.push("", h(`${group[0]!.toUpperCase()}${group.slice(1)} checks (${g.length})`));
    for (const c of g) out.push(...checkLines(c).map((l) => `  ${l}`));
  }
  return `${out.join("\n")}\n`;
}
