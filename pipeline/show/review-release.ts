import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../core/errors.js";
import { buildTaskView } from "./build-task-view.js";
import { openShowRelease, type OpenOptions } from "./open-release.js";
import { renderHtml } from "./render-html.js";
import { renderIndex, type IndexEntry } from "./render-index.js";

/** What `synth review` wrote. */
export interface ReviewResult {
  index: string;
  pages: string[];
  entries: IndexEntry[];
}

/** A domain or task id becomes a path segment: only plain slugs, so no page is written outside the folder. */
function segment(id: string, what: string, file: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) throw new FoundryError("REVIEW_UNSAFE_ID", `the ${what} id cannot name a file of the review folder`, { file }, id);
  return id;
}

/**
 * Write the review of a whole release: the page of every task on its golden trace
 * (`OUT/<domain>/<task>.html`, the same page `synth show --html` writes) and `OUT/index.html`,
 * tasks by domain and difficulty with their checks and violation traces, linking to each page.
 * The release is opened once (verified as `synth show` does); `progress` hears each page written.
 * Every task is checked for a golden trace before any page is written, and all missing ones are named.
 */
export function reviewRelease(releaseArg: string, outDir: string, opts: OpenOptions & { releasesRoot?: string; progress?: (line: string) => void } = {}): ReviewResult {
  const release = openShowRelease(releaseArg, opts.releasesRoot, opts);
  const jobs = [...release.domains.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([id, domain]) => [...domain.parsed.tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((task) => ({ id, domain, task })));
  const errors: FoundryError[] = [];
  for (const j of jobs) {
    try {
      segment(j.id, "domain", release.dir);
      segment(j.task.id, "task", release.dir);
    } catch (err) {
      errors.push(err as FoundryError);
    }
    if (!j.domain.parsed.golden.has(j.task.id)) errors.push(new FoundryError("RELEASE_INVALID", `task ${j.task.id} has no golden trace in the release`, { file: release.dir }, j.task.id));
  }
  if (errors.length > 0) throw errors.length === 1 ? errors[0] : new AggregateError(errors, `cannot review ${release.dir}: ${errors.length} problems`);
  const pages: string[] = [];
  const entries: IndexEntry[] = [];
  for (const [n, j] of jobs.entries()) {
    const view = buildTaskView(release, j.domain, j.task, j.domain.parsed.golden.get(j.task.id)!);
    const rel = `${j.id}/${j.task.id}.html`;
    const file = join(outDir, j.id, `${j.task.id}.html`);
    mkdirSync(join(outDir, j.id), { recursive: true });
    writeFileSync(file, renderHtml(view));
    pages.push(file);
    entries.push({
      domain: j.id,
      task: j.task.id,
      title: view.task.title,
      difficulty: view.task.difficulty,
      checks: view.checks.length,
      // a violation trace may target more than one check: count each file once
      violations: new Set(view.checks.flatMap((c) => c.violations.map((v) => v.file))).size,
      failing: view.checks.filter((c) => !c.verdict.passed).length,
      href: rel,
    });
    opts.progress?.(`[${n + 1}/${jobs.length}] ${file}`);
  }
  const index = join(outDir, "index.html");
  mkdirSync(outDir, { recursive: true });
  writeFileSync(index, renderIndex({ name: release.manifest.name, version: release.manifest.version, root_hash: release.manifest.root_hash, unverified: release.unverified }, entries));
  return { index, pages, entries };
}
