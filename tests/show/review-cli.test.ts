import { existsSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { STYLE } from "../../pipeline/evaluate/score/report/html.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { renderHtml } from "../../pipeline/show/render-html.js";
import { renderIndex } from "../../pipeline/show/render-index.js";
import { showReleaseTask } from "../../pipeline/show/show-task.js";
import { runCli } from "../cli/run-cli.js";
import { RELEASES, SAMPLE, SAMPLE_DIR, tamperedCopy, VERSION } from "./show-fixture.js";

const manifest = JSON.parse(readFileSync(join(SAMPLE_DIR, "manifest.json"), "utf8")) as { root_hash: string; files: Record<string, string>; counts: { tasks: number; checks: number; by_domain: Record<string, { tasks: number }> } };
const taskIds = Object.keys(manifest.files)
  .map((f) => /^domains\/([^/]+)\/tasks\/([^/]+)\.json$/.exec(f))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => `${m[1]}/${m[2]}`)
  .sort();
const violationFiles = Object.keys(manifest.files).filter((f) => /^domains\/[^/]+\/violations\//.test(f)).length;
const hrefs = (html: string) => [...html.matchAll(/<a href="([^"#]+)">/g)].map((m) => m[1]);

describe("synth review", () => {
  it("writes every task's show page and an index linking to each with its counts", () => {
    const out = mkdtempSync(join(tmpdir(), "review-"));
    try {
      const r = runCli(["review", SAMPLE, "--out", out]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`wrote ${join(out, "index.html")} (${manifest.counts.tasks} task pages)\n`);
      const progress = r.stderr.trimEnd().split("\n");
      expect(progress).toEqual(taskIds.map((id, i) => `[${i + 1}/${taskIds.length}] ${join(out, `${id}.html`)}`));
      expect(readdirSync(out).sort()).toEqual([...Object.keys(manifest.counts.by_domain), "index.html"].sort());
      for (const [d, c] of Object.entries(manifest.counts.by_domain)) expect(readdirSync(join(out, d))).toHaveLength(c.tasks);
      // each page is exactly the page `synth show --html` writes
      expect(readFileSync(join(out, "fx-treasury", "fx-treasury-003.html"), "utf8")).toBe(renderHtml(showReleaseTask(SAMPLE, "fx-treasury-003", RELEASES)));
      const index = readFileSync(join(out, "index.html"), "utf8");
      expect(hrefs(index).sort()).toEqual(taskIds.map((id) => `${id}.html`));
      expect(index).toContain(`<p>root <code>${manifest.root_hash}</code>; ${manifest.counts.tasks} tasks in ${Object.keys(manifest.counts.by_domain).length} domains, ${manifest.counts.checks} checks, ${violationFiles} violation traces.`);
      expect(index).not.toContain('id="unverified"');
      expect(index).not.toContain('class="failed"');
      expect(index).not.toContain("<script");
      // one row, exactly: the counts come from that task's own checks and violation traces
      const view = showReleaseTask(SAMPLE, "ed-triage-001", RELEASES);
      const violations = new Set(view.checks.flatMap((c) => c.violations.map((v) => v.file))).size;
      expect(index).toContain(`<tr><td>${view.task.difficulty ?? "not calibrated"}</td><td class="id"><a href="ed-triage/ed-triage-001.html">ed-triage-001</a></td><td>${view.task.title}</td><td>${view.checks.length}</td><td>${violations}</td><td><span class="passed">all pass</span></td></tr>`);
    } finally {
      removeTree(out);
    }
  }, 120_000);

  it("a tampered release: pages written after a warning naming the file, the index names it; --strict exits 1 and writes nothing", () => {
    const { dir, golden } = tamperedCopy();
    const out = mkdtempSync(join(tmpdir(), "review-tamper-"));
    try {
      const strict = runCli(["review", dir, "--out", join(out, "strict"), "--strict"]);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toBe("");
      expect(strict.stderr).toContain(`${golden}: [RELEASE_TAMPERED] refusing to show: content changed: sha256`);
      expect(existsSync(join(out, "strict"))).toBe(false);
      const r = runCli(["review", dir, "--out", join(out, "warn")]);
      expect(r.code).toBe(0);
      const lines = r.stderr.split("\n");
      expect(lines[0]).toBe(`warning: ${dir} does not match its manifest (1 file); showing it anyway, --strict refuses it:`);
      expect(lines[1]).toContain(`warning: ${golden}: [RELEASE_TAMPERED] content changed: sha256 `);
      expect(lines[2]).toBe(`[1/${taskIds.length}] ${join(out, "warn", `${taskIds[0]}.html`)}`);
      const index = readFileSync(join(out, "warn", "index.html"), "utf8");
      expect(index).toContain(`<section id="unverified"><h2 class="failed">This release does not match its manifest</h2><ul><li><code>domains/ed-triage/golden/ed-triage-008.json</code>: content changed: sha256 `);
    } finally {
      removeTree(out);
      removeTree(join(dir, ".."));
    }
  }, 120_000);

  it("usage errors exit 2", () => {
    const noOut = runCli(["review", SAMPLE]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain("required option '--out <dir>' not specified");
    const noRelease = runCli(["review", "--out", "/tmp/unused-review-out"]);
    expect(noRelease.code).toBe(2);
    expect(noRelease.stderr).toContain("missing required argument 'release'");
  });
});

describe("review and show pages", () => {
  it("use the evaluator report's style, followed by their own rules", () => {
    const page = renderHtml(showReleaseTask(SAMPLE, "ed-triage-001", RELEASES));
    expect(STYLE).toContain("th{background:#f4f4f4}");
    expect(page).toContain(`<style>${STYLE}\nbody{max-width:1400px;`);
    expect(renderIndex({ name: "n", version: VERSION, root_hash: "r", unverified: [] }, [])).toContain(`<style>${STYLE}\nbody{max-width:1400px;`);
  });
});

describe("renderIndex", () => {
  const entry = (task: string, difficulty: string | null) => ({ domain: "d", task, title: `t <${task}>`, difficulty, checks: 3, violations: 2, failing: 0, href: `d/${task}.html` });
  it("orders a domain's tasks by difficulty on the scale (uncalibrated last), then id, and escapes titles", () => {
    const html = renderIndex({ name: "n", version: VERSION, root_hash: "r", unverified: [] }, [entry("c", null), entry("b", "hard"), entry("a", "expert"), entry("e", "easy"), entry("d", "hard")]);
    expect(hrefs(html)).toEqual(["d/e.html", "d/b.html", "d/d.html", "d/a.html", "d/c.html"]);
    expect(html).toContain("<td>t &lt;e&gt;</td>");
    expect(html).toContain('<h2>d (5 tasks)</h2>');
  });
});
