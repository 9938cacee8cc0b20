import type { EvaluationResult, Rate, SliceScores } from "../../../schemas/evaluation-result.js";
import { CALL_KINDS, type Efficiency } from "../efficiency.js";
import type { FailedCheckRow } from "./failed-checks.js";
import type { SimulatedEvaluation } from "../../../schemas/simulated.js";

/** Escape text for HTML element content and attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const pct = (x: number | null) => (x === null ? "–" : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? "–" : String(x));
const rateCell = (r: Rate) => `<td>${pct(r.rate)}</td><td>${r.lo === null ? "–" : `${pct(r.lo)} – ${pct(r.hi)}`}</td><td>${r.n}</td>`;

function table(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const td = (s: string | number) => `<td>${escapeHtml(String(s))}</td>`;

function sliceTable(title: string, slices: Readonly<Record<string, SliceScores>>): string {
  const head = [title, "episodes", "strict success", "95% interval", "goal", "process", "protection", "goal reached but invalid"];
  const rows = Object.entries(slices).map(([k, s]) => [
    td(k),
    td(s.episodes),
    ...rateCell(s.strict_success).split(/(?=<td>)/).slice(0, 2),
    `<td>${pct(s.goal.rate)}</td>`,
    `<td>${pct(s.process.rate)}</td>`,
    `<td>${pct(s.protection.rate)}</td>`,
    `<td>${pct(s.goal_reached_but_invalid.rate)}</td>`,
  ]);
  return table(head, rows);
}

/** The evaluator report's page style; `synth show` and `synth review` pages build on it. */
export const STYLE = `body{font-family:sans-serif;margin:2em auto;max-width:1100px;color:#222;line-height:1.4}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0;font-size:.9em}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left;vertical-align:top}
th{background:#f4f4f4}figure{display:inline-block;margin:1em 1em 1em 0;vertical-align:top}figcaption{font-size:.85em;max-width:480px;color:#555}
code{font-size:.9em}.wide td{max-width:420px;overflow-wrap:anywhere}`;

/** The figures' inline SVGs with their titles and captions. */
export interface RenderedChart {
  id: string;
  title: string;
  caption: string;
  svg: string;
}

/**
 * The whole report page: self-contained HTML (inline style and SVG, no script, no link, nothing
 * fetched), every figure from the summary and the failed-check rows.
 */
/** The section on simulated-only tasks, apart from every figure above (empty without such tasks). */
function simulatedOnlySection(r: SimulatedEvaluation | null): string {
  if (!r) return "";
  const rows = r.episodes.map((e) => [td(e.task), td(e.condition), td(e.run), td(e.status === "errored" ? `errored: ${e.error ?? ""}` : e.strict_success ? "passed" : "failed"), td(e.criteria.map((c) => `${c.id} ${c.met ? "met" : "not met"} ${c.votes}/${c.total}${c.split ? " (split)" : ""}`).join("; "))]);
  const skipped = r.skipped.map((k) => [td(k.task), td(k.reason)]);
  return `<h2>Simulated-only tasks</h2>
<p>Tasks of simulated-only domains (no world): run under the environment simulator and scored by the rubric verifier only (three judgments per criterion, majority vote), never by executable checks; none of the figures above includes them. Strict success ${r.strict_success.passed} of ${r.strict_success.completed} completed episodes (${pct(r.strict_success.rate)}). Every judgment is in <code>simulated-only.json</code>.</p>
${rows.length === 0 ? "" : table(["task", "condition", "run", "result", "criteria (votes met)"], rows)}
${skipped.length === 0 ? "" : `<p>Skipped:</p>\n${table(["task", "why"], skipped)}`}
`;
}

export function reportPage(summary: EvaluationResult, charts: readonly RenderedChart[], failed: readonly FailedCheckRow[], simulatedOnly: SimulatedEvaluation | null = null): string {
  const s = summary;
  const eff = s.efficiency as unknown as Efficiency;
  const settings = Object.entries(s.settings)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => [td(k), `<td><code>${escapeHtml(JSON.stringify(v))}</code></td>`]);
  const overall = (["strict_success", "goal", "process", "protection", "goal_reached_but_invalid"] as const).map((m) => [td(m.replace(/_/g, " ")), rateCell(s.overall[m])]);
  const figures = charts
    .map((c) => `<figure id="${escapeHtml(c.id)}">\n<h3>${escapeHtml(c.title)}</h3>\n${c.svg}\n<figcaption>${escapeHtml(c.caption)}</figcaption>\n</figure>`)
    .join("\n");
  const passK = Object.entries(s.pass_hat_k);
  const ks = [...new Set(passK.flatMap(([, r]) => Object.keys(r)))].sort((a, b) => Number(a) - Number(b));
  const kinds = CALL_KINDS.map((k) => [td(k.replace(/_/g, " ")), td(eff.by_kind[k].agent), td(eff.by_kind[k].golden), td(num(eff.by_kind[k].ratio))]);
  const wasted = (["repeats", "rejected", "errored"] as const).map((k) => [td(k), td(eff[k].count), `<td>${pct(eff[k].share)}</td>`]);
  const caps = Object.entries(s.caps).map(([k, r]) => [td(k), rateCell(r)]);
  const usage = Object.entries(s.usage).map(([role, u]) => [td(role), td(u.calls), td(u.input_tokens), td(u.output_tokens), td(u.cost_usd === null ? "no price" : `$${u.cost_usd}`)]);
  const flags = Object.entries(s.user_sim_audit.flags).map(([k, n]) => [td(k.replace(/_/g, " ")), td(n)]);
  const errored = s.errored.map((e) => [td(e.task), td(e.condition), td(e.run), td(e.class), td(e.message)]);
  const failedRows = failed.map((f) => [td(f.task), td(f.check), td(f.group), td(f.kind), td(`${f.failed} of ${f.episodes}`), td(f.conditions.join(", ")), td(f.reason), td(f.enforces)]);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(`${s.agent} on ${s.release.name}@${s.release.version}`)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<h1>${escapeHtml(s.agent)} on ${escapeHtml(`${s.release.name}@${s.release.version}`)}</h1>
<p>Customer simulator <code>${escapeHtml(s.user_sim)}</code>; ${s.episodes.total} episodes, ${s.episodes.completed} judged, ${s.episodes.errored} errored (left out of every rate). Release root hash <code>${escapeHtml(s.release.root_hash)}</code>. Every figure is recomputed from the traces by <code>synth score</code>.</p>
<h2>Overall</h2>
${table(["measure", "rate", "95% interval", "episodes"], overall.map(([a, b]) => [a as string, b as string]))}
<p>Robustness min(CR<sub>E1</sub>, CR<sub>E2</sub>, CR<sub>E3</sub>) / CR<sub>E0</sub>: <strong>${num(s.robustness)}</strong>.</p>
<h2>Charts</h2>
${figures}
<h2>By condition</h2>
${sliceTable("condition", s.by_condition)}
<h2>By industry</h2>
${sliceTable("industry", s.by_industry)}
<h2>By domain</h2>
${sliceTable("domain", s.by_domain)}
<h2>By difficulty</h2>
${sliceTable("difficulty", s.by_difficulty)}
<h2>By task</h2>
${sliceTable("task", s.by_task)}
<h2>pass^k</h2>
${table(["condition", ...ks.map((k) => `k=${k}`)], passK.map(([c, r]) => [td(c), ...ks.map((k) => `<td>${pct(r[k] ?? null)}</td>`)]))}
<h2>Efficiency against the golden trace</h2>
<p>${eff.episodes} judged episodes: ${eff.total.agent} agent calls for ${eff.total.golden} golden calls (ratio ${num(eff.total.ratio)}; mean per episode ${num(eff.mean_episode_ratio)}).</p>
${table(["kind", "agent calls", "golden calls", "ratio"], kinds)}
${table(["wasted calls", "count", "share of agent calls"], wasted)}
<h2>Call caps</h2>
${table(["cap", "strict success", "95% interval", "episodes"], caps.map(([a, b]) => [a as string, b as string]))}
<h2>Customer simulator audit</h2>
<p>${s.user_sim_audit.flagged_episodes} flagged episodes. Strict success over unflagged episodes: ${pct(s.user_sim_audit.strict_success_unflagged.rate)} (n=${s.user_sim_audit.strict_success_unflagged.n}).</p>
${table(["flag", "count"], flags)}
<h2>Usage</h2>
${usage.length === 0 ? "<p>No model calls.</p>" : table(["role", "calls", "input tokens", "output tokens", "cost"], usage)}
<h2>Errored episodes</h2>
${errored.length === 0 ? "<p>None.</p>" : table(["task", "condition", "run", "class", "message"], errored)}
<h2>Failed checks</h2>
${failedRows.length === 0 ? "<p>No check failed.</p>" : `<div class="wide">${table(["task", "check", "group", "kind", "failed", "conditions", "reason (first failure)", "enforces"], failedRows)}</div>`}
<h2>Settings</h2>
${table(["setting", "value"], settings)}
${simulatedOnlySection(simulatedOnly)}</body>
</html>
`;
}
