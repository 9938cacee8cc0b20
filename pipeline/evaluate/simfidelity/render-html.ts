import type { FidelityFigures, RankingAgreement, SimFidelityReport } from "./report-schema.js";

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);

function row(label: string, f: FidelityFigures): string {
  return `<tr><td>${esc(label)}</td><td>${f.calls}</td><td>${f.valid}</td><td>${pct(f.status_agreement)}</td><td>${f.fields}</td><td>${pct(f.field_agreement)}</td><td>${f.invented}</td><td>${f.missing}</td></tr>`;
}

function table(title: string, rows: Array<[string, FidelityFigures]>): string {
  return `<h2>${esc(title)}</h2><table><thead><tr><th></th><th>calls</th><th>valid</th><th>status agreement</th><th>fields</th><th>field agreement</th><th>invented</th><th>missing</th></tr></thead><tbody>${rows.map(([l, f]) => row(l, f)).join("")}</tbody></table>`;
}

const rate = (x: number | null, n: number) => `${pct(x)} (${n})`;
const order = (o: string | null, a: string, b: string) => (o === null ? "—" : o === "tie" ? "tie" : `${esc(o === "a" ? a : b)} higher`);

/** The ranking under the simulator against the executable ranking: agents, pairs, the figure. */
function rankingSection(r: RankingAgreement): string {
  const agents = r.agents.map((a) => `<tr><td>${esc(a.agent)}</td><td>${rate(a.executable, a.episodes.executable)}</td><td>${rate(a.simulated, a.episodes.simulated)}</td></tr>`).join("");
  const pairs = r.pairs.map((p) => `<tr><td>${esc(p.a)} · ${esc(p.b)}</td><td>${order(p.executable, p.a, p.b)}</td><td>${order(p.simulated, p.a, p.b)}</td><td>${p.agrees === null ? "not compared" : p.agrees ? "agrees" : "disagrees"}</td></tr>`).join("");
  return `<h2>Ranking agreement</h2>
<p>Pairwise ranking agreement: <strong>${pct(r.agreement)}</strong> of ${r.pairs.filter((p) => p.agrees !== null).length} pairs compared. ${esc(r.method)}</p>
<table><thead><tr><th>agent</th><th>strict success, executable (episodes)</th><th>strict success, simulated (episodes)</th></tr></thead><tbody>${agents}</tbody></table>
<table><thead><tr><th>pair</th><th>executable</th><th>simulated</th><th></th></tr></thead><tbody>${pairs}</tbody></table>`;
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
${table("Per trace source", Object.entries(r.by_source))}
${table("Per domain", Object.entries(r.by_domain))}
${table("Per operation", Object.entries(r.by_operation))}
${table("Drift over the conversation", [["first half", r.drift.first_half], ["second half", r.drift.second_half], ...r.drift.by_position.map((p): [string, FidelityFigures] => [`call ${p.position}`, p.figures])])}
<p>Change of field agreement from the first to the second half: ${change}.</p>
${rankingSection(r.ranking)}
</section></body></html>
`;
}
