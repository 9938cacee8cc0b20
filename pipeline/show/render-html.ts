import { escapeHtml, STYLE as REPORT_STYLE } from "../evaluate/score/report/html.js";
import { clauseRef } from "./render-text.js";
import type { CheckView, EventView, QuotedClause, RowChangeView, TaskView } from "./task-view.js";

const e = escapeHtml;
const json = (v: unknown): string => JSON.stringify(v) ?? "null";
/** Anchor id of a check: check ids are slugs, but keep the id safe whatever they hold. */
export const checkAnchor = (id: string): string => `check-${id.replace(/[^A-Za-z0-9_-]/g, "_")}`;
export const eventAnchor = (index: number): string => `event-${index}`;

/** The evaluator report's style, widened for four columns, plus the clause and verdict classes this page adds. */
export const SHOW_STYLE = `${REPORT_STYLE}
body{max-width:1400px;padding:0 1em}h3{font-size:1.05em}table{width:100%}td{overflow-wrap:anywhere}
pre{font-size:.85em;white-space:pre-wrap;overflow-wrap:anywhere;margin:.2em 0}
blockquote.clause{margin:.3em 0;padding:.2em .6em;border-left:3px solid #7a9cc6;background:#f5f8fc}
.hidden-fact{color:#8a4b00}.failed{color:#b00020;font-weight:bold}.passed{color:#1b6e20}
td.ev{width:22%}td.cl{width:30%}td.ch{width:24%}td.ck{width:24%}`;

function clauseBlock(c: QuotedClause): string {
  const lines = c.text === null ? "<em>the release holds no text for these lines</em>" : `<pre>${e(c.text.split("\n").map((l, i) => `${String(c.line_start + i).padStart(4)} | ${l}`).join("\n"))}</pre>`;
  return `<div><code>${e(clauseRef(c))}</code><blockquote class="clause">${lines}</blockquote></div>`;
}

function changesCell(changes: readonly RowChangeView[]): string {
  return changes
    .map((c) => {
      const rows = c.columns.map((col) => `<tr><td><code>${e(col.column)}</code></td><td><code>${e(c.op === "insert" ? "–" : json(col.before))}</code></td><td><code>${e(c.op === "delete" ? "–" : json(col.after))}</code></td></tr>`).join("");
      return `<div><strong>${e(c.op)} ${e(c.table)}[${e(String(c.key))}]</strong><table><thead><tr><th>column</th><th>before</th><th>after</th></tr></thead><tbody>${rows}</tbody></table></div>`;
    })
    .join("");
}

const verdict = (passed: boolean) => (passed ? `<span class="passed">passed</span>` : `<span class="failed">failed</span>`);

function eventRow(ev: EventView, checks: ReadonlyMap<string, CheckView>): string {
  const head = `<a href="#${eventAnchor(ev.index)}">[${ev.index}]</a> t=${ev.time} ${e(ev.actor)} <em>${e(ev.kind)}</em> <code>${e(ev.name)}</code> → ${e(ev.status)}`;
  const args = Object.keys(ev.args).length > 0 ? `<pre>${e(json(ev.args))}</pre>` : "";
  const text = ev.text !== null ? `<p>“${e(ev.text)}”</p>` : "";
  const facts = ev.facts.length > 0 ? `<p class="hidden-fact">discloses ${e(ev.facts.join(", "))}</p>` : "";
  const reason = ev.reason !== null ? `<p>reason: ${e(ev.reason)}</p>` : "";
  const result = ev.result !== null ? `<details><summary><code>${e(ev.result_short ?? "")}</code></summary><pre>${e(ev.result)}</pre></details>` : "";
  const plan = ev.plan ? `<p>plan step ${ev.plan.step}${ev.plan.workflow ? ` (<code>${e(`${ev.plan.workflow}/${ev.plan.sop_step}`)}</code>)` : ""}: ${e(ev.plan.why)}</p>` : "";
  const clause = ev.clause ? clauseBlock(ev.clause) : "";
  const decided = ev.checks
    .map((id) => {
      const c = checks.get(id);
      if (!c) return "";
      const v = c.violations.map((x) => `<li><code>${e(x.operator)}</code> ${verdict(x.verdict.passed)}: ${e(x.verdict.reason)}</li>`).join("");
      return `<div><a href="#${checkAnchor(id)}">${e(id)}</a> (${e(c.group)}) ${verdict(c.verdict.passed)}${v ? `<ul>${v}</ul>` : ""}</div>`;
    })
    .join("");
  const failed = ev.failed.map((f) => `<p class="failed">${e(f.check)}: ${e(f.reason)}</p>`).join("");
  return `<tr id="${eventAnchor(ev.index)}"><td class="ev">${head}${args}${text}${facts}${reason}${result}</td><td class="cl">${plan}${clause}</td><td class="ch">${changesCell(ev.changes)}</td><td class="ck">${failed}${decided}</td></tr>`;
}

function checkSection(c: CheckView): string {
  const p = c.provenance;
  const prov =
    p.source === "rule"
      ? `<p>rule <code>${e(p.rule)}</code></p>${clauseBlock(p.clause)}${p.outdated ? `<p>trap: the version not in force</p>${clauseBlock(p.outdated)}` : ""}`
      : `<p>customer requirement <code>${e(p.requirement)}</code>${p.text !== null ? `: ${e(p.text)}` : ""}</p>`;
  const decided = c.verdict.event === null ? "the trace as a whole" : `<a href="#${eventAnchor(c.verdict.event)}">event ${c.verdict.event}</a>`;
  const violations = c.violations.length === 0 ? "<p>No violation trace targets this check.</p>" : `<table><thead><tr><th>violation trace</th><th>operator</th><th>mutation</th><th>verdict</th></tr></thead><tbody>${c.violations.map((v) => `<tr><td><code>${e(v.file)}</code></td><td>${e(v.operator)}</td><td>${e(v.description ?? "")}</td><td>${verdict(v.verdict.passed)}: ${e(v.verdict.reason)}</td></tr>`).join("")}</tbody></table>`;
  return `<section id="${checkAnchor(c.id)}"><h3><a href="#${checkAnchor(c.id)}">${e(c.id)}</a> <code>${e(c.kind)}</code> ${verdict(c.verdict.passed)}</h3><p>${e(c.description)}</p>${prov}<p>decided by ${decided}: ${e(c.verdict.reason)}</p>${violations}</section>`;
}

/**
 * The view as one self-contained page: inline style, no script, nothing fetched; every text is
 * escaped; anchors `event-N` and `check-ID` let a review comment link to one event or check.
 */
export function renderHtml(view: TaskView): string {
  const t = view.task;
  const checks = new Map(view.checks.map((c) => [c.id, c]));
  const traceName = view.trace.kind === "golden" ? `golden trace <code>${e(view.trace.file)}</code>` : `episode <code>${e(view.trace.episode)}</code> (${e(view.trace.agent)}, ${e(view.trace.condition)}, strict success ${view.trace.strict_success ? "yes" : "no"}) <code>${e(view.trace.file)}</code>`;
  const facts = t.private_facts.map((f) => `<tr class="hidden-fact"><td><code>${e(f.id)}</code></td><td><code>${e(json(f.value))}</code></td><td>${e(f.statement)}</td><td>${e(f.disclose_when.join(", "))}</td><td>hidden from the agent</td></tr>`).join("");
  const docs = view.documents
    .map((d) => {
      const scope = d.scope ? [d.scope.segments.length ? `segments ${d.scope.segments.join(", ")}` : "", d.scope.regions.length ? `regions ${d.scope.regions.join(", ")}` : "", d.scope.products.length ? `products ${d.scope.products.join(", ")}` : "", d.scope.note ?? ""].filter(Boolean).join("; ") : "";
      return `<tr><td>${d.role === "in_force" ? "in force" : "distractor"}</td><td><code>${e(d.key)}</code></td><td>${e(d.title ?? "not in the release")}</td><td>${e(d.effective_from ?? "–")} to ${e(d.effective_to ?? "open")}</td><td>${e(scope)}</td></tr>`;
    })
    .join("");
  const whole = view.checks.filter((c) => !c.verdict.passed && c.verdict.event === null);
  const list = (items: string[]) => (items.length === 0 ? "<p>None.</p>" : `<ul>${items.map((i) => `<li>${i}</li>`).join("")}</ul>`);
  const groups = (["goal", "process", "protection"] as const).map((g) => `<h2 id="${g}-checks">${g[0]!.toUpperCase()}${g.slice(1)} checks</h2>${view.checks.filter((c) => c.group === g).map(checkSection).join("\n")}`).join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(`${t.id} — ${view.release.name}@${view.release.version}`)}</title><style>${SHOW_STYLE}</style></head>
<body>
<h1>${e(t.id)} (${e(t.domain)}): ${e(t.title)}</h1>
<p>release <code>${e(`${view.release.name}@${view.release.version}`)}</code>, root <code>${e(view.release.root_hash)}</code>; ${traceName}</p>
<section id="task"><h2>Task</h2>
<p><strong>Objective:</strong> ${e(t.objective)}</p>
<p>as of ${e(t.as_of)}, customer <code>${e(t.customer_id)}</code>, difficulty ${e(t.difficulty ?? "not calibrated")}</p>
<p><strong>Persona:</strong> ${e(t.persona)}</p>
<p><strong>Opening request:</strong> “${e(t.opening_request)}”</p>
<h3>Private facts (hidden from the agent; disclosed only when asked)</h3>
${facts ? `<table><thead><tr><th>fact</th><th>value</th><th>statement</th><th>disclosed when asked about</th><th></th></tr></thead><tbody>${facts}</tbody></table>` : "<p>None.</p>"}
<h3>Preferences</h3>${list(t.preferences.map((p) => `<code>${e(p.id)}</code>: ${e(p.statement)}`))}
<h3>Approvals the customer will give (only these exact terms)</h3>${list(t.approvals.map((a) => `<code>${e(a.kind)}</code> <code>${e(json(a.terms))}</code>`))}
<h3>Scheduled events of the task</h3>${list(t.scheduled_events.map((s) => `<code>${e(json(s))}</code>`))}
</section>
<section id="documents"><h2>Documents</h2>
<table><thead><tr><th>role</th><th>version</th><th>title</th><th>period</th><th>scope</th></tr></thead><tbody>${docs}</tbody></table></section>
<section id="trace"><h2>Trace, event by event</h2>
<table><thead><tr><th>event</th><th>plan step and clause</th><th>state changes</th><th>checks decided here</th></tr></thead><tbody>
${view.events.map((ev) => eventRow(ev, checks)).join("\n")}
</tbody></table>
${whole.length > 0 ? `<h3>Failed checks no single event decided</h3><ul>${whole.map((c) => `<li class="failed"><a href="#${checkAnchor(c.id)}">${e(c.id)}</a>: ${e(c.verdict.reason)}</li>`).join("")}</ul>` : ""}</section>
${groups}
</body></html>
`;
}
