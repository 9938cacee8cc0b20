import { escapeHtml as e } from "../evaluate/score/report/html.js";
import { DIFFICULTIES } from "../schemas/task.js";
import { SHOW_STYLE } from "./render-html.js";

/** One task's row on the review index. */
export interface IndexEntry {
  domain: string;
  task: string;
  title: string;
  difficulty: string | null;
  checks: number;
  violations: number;
  /** Checks the golden trace fails now (0 on a sound release). */
  failing: number;
  /** Page of the task, relative to the index. */
  href: string;
}

/** What the index page says about the release itself. */
export interface IndexRelease {
  name: string;
  version: string;
  root_hash: string;
  /** Files that did not match the manifest when the pages were written (release-relative). */
  unverified: ReadonlyArray<{ file: string; reason: string }>;
}

/** Difficulty labels in their scale's order, uncalibrated tasks last. */
function difficultyRank(d: string | null): number {
  const i = d === null ? -1 : (DIFFICULTIES as readonly string[]).indexOf(d);
  return i === -1 ? DIFFICULTIES.length : i;
}

/**
 * The review index: one section per domain, tasks grouped by difficulty (scale order, then id),
 * each row linking to its page with its number of checks and violation traces. No script, nothing
 * fetched; every text escaped.
 */
export function renderIndex(release: IndexRelease, entries: readonly IndexEntry[]): string {
  const domains = [...new Set(entries.map((x) => x.domain))].sort();
  const sections = domains.map((d) => {
    const rows = entries
      .filter((x) => x.domain === d)
      .sort((a, b) => difficultyRank(a.difficulty) - difficultyRank(b.difficulty) || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0))
      .map((x) => `<tr><td>${e(x.difficulty ?? "not calibrated")}</td><td class="id"><a href="${e(x.href)}">${e(x.task)}</a></td><td>${e(x.title)}</td><td>${x.checks}</td><td>${x.violations}</td><td>${x.failing === 0 ? `<span class="passed">all pass</span>` : `<span class="failed">${x.failing} fail</span>`}</td></tr>`)
      .join("\n");
    const n = entries.filter((x) => x.domain === d).length;
    return `<section id="domain-${e(d)}"><h2>${e(d)} (${n} ${n === 1 ? "task" : "tasks"})</h2>
<table><thead><tr><th>difficulty</th><th>task</th><th>title</th><th>checks</th><th>violation traces</th><th>golden trace</th></tr></thead><tbody>
${rows}
</tbody></table></section>`;
  });
  const warning =
    release.unverified.length === 0
      ? ""
      : `<section id="unverified"><h2 class="failed">This release does not match its manifest</h2><ul>${release.unverified.map((f) => `<li><code>${e(f.file)}</code>: ${e(f.reason)}</li>`).join("")}</ul></section>`;
  const name = `${release.name}@${release.version}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(`review of ${name}`)}</title><style>${SHOW_STYLE}
td.id{white-space:nowrap}</style></head>
<body>
<h1>Review of ${e(name)}</h1>
<p>root <code>${e(release.root_hash)}</code>; ${entries.length} tasks in ${domains.length} domains, ${entries.reduce((s, x) => s + x.checks, 0)} checks, ${entries.reduce((s, x) => s + x.violations, 0)} violation traces. Each page shows the task on its golden trace.</p>
${warning}
${sections.join("\n")}
</body></html>
`;
}
