import type { FidelityFigures, SimFidelityReport } from "./report-schema.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);

function row(label: string, f: FidelityFigures): string {
  return `<tr><td>${esc(label)}</td><td>${f.calls}</td><td>${f.valid}</td><td>${pct(f.status_agreement)}</td><td>${f.fields}</td><td>${pct(f.field_agreement)}</td><td>${f.invented}</td><td>${f.missing}</td></tr>`;
}

function table(title: string, rows: Array<[string, FidelityFigures]>): string {
  return `<h2>${esc(title)}</h2><table><thead><tr><th></th><th>calls</th><th>valid</th><th>status agreement</th><th>fields</th><th>field agreement</th><th>invented</th><th>missing</th></tr></thead><tbody>${rows.map(([l, f]) => row(l, f)).join("")}</tbody></table>`;
}

/** The report as one self-contained HTML section (no script, nothing fetched). */
export function renderFidelityHtml(r: SimFidelityReport): string {
  const change = r.drift.change === null ? "—" : `${r.drift.change >= 0 ? "+" : ""}${(r.drift.change * 100).toFixed(1)} pp`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Simulator fidelity: ${esc(r.simulator)} on ${esc(r.release.name)}@${esc(r.release.version)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}table{border-collapse:collapse;margin-bottom:1.5rem}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:right}td:first-child,th:first-child{text-align:left}</style></head>
<body><section id="simfidelity">
<h1>Simulator fidelity: ${esc(r.simulator)}</h1>
<p>Release ${esc(r.release.name)}@${esc(r.release.version)} (${esc(r.release.root_hash)}). ${esc(r.method)}</p>
${table("Overall", [["all calls", r.overall]])}
${table("Per domain", Object.entries(r.by_domain))}
${table("Per operation", Object.entries(r.by_operation))}
${table("Drift over the conversation", [["first half", r.drift.first_half], ["second half", r.drift.second_half], ...r.drift.by_position.map((p): [string, FidelityFigures] => [`call ${p.position}`, p.figures])])}
<p>Change of field agreement from the first to the second half: ${change}.</p>
</section></body></html>
`;
}
