import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import Table from "cli-table3";
import { formatIssue } from "../../core/errors.js";
import { checkDomain, listDomainDirs } from "../../sources/check-sources.js";
import { runBuild } from "../../build/run-build.js";
import { Progress } from "../../build/progress.js";
import { dropCause } from "../../build/drop-cause.js";
import { checkSampleRelease, latestVersion, SAMPLE_RELEASE } from "../../build/sample-release.js";
import { ValidationReport } from "../../schemas/index.js";
import { readFileSync } from "node:fs";
import { demoConfig } from "./demo-config.js";
import { runDemoEvaluationsInThread } from "./demo-evaluation-thread.js";
import { demoFigures, horizonText } from "../../release/demo-figures.js";

const killAll = (k: { killed: number; total: number }) => (k.total === 0 ? "-" : `${((100 * k.killed) / k.total).toFixed(1)}% (${k.killed}/${k.total})`);

export { demoConfig } from "./demo-config.js";

/** `synth demo`: the offline showcase run by `npm run demo`. */
export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("Offline demonstration: check every sample domain, build it with the deterministic agents, export and audit the sample release against the committed one, and write a summary report.")
    .option("--sources <dir>", "folder holding the domains", "sources")
    .option("--generated <dir>", "output folder", "generated")
    .addHelpText("after", "\nNeeds no network and no model. Prints a per-domain summary and writes it to\n<generated>/demo-summary.md (and .json).")
    .action(async (opts: { sources: string; generated: string }) => {
      const dirs = listDomainDirs(opts.sources);
      if (dirs.length === 0) {
        process.stderr.write(`synth demo: no domains under ${opts.sources}/\n`);
        process.exitCode = 1;
        return;
      }
      let problems = 0;
      for (const dir of dirs) {
        const r = checkDomain(dir);
        problems += r.issues.length;
        for (const i of r.issues) process.stderr.write(`  ${formatIssue(i)}\n`);
      }
      if (problems > 0) {
        process.stderr.write(`synth demo: ${problems} problem(s) in the sources; fix them first (synth check-sources)\n`);
        process.exitCode = 1;
        return;
      }
      const progress = Progress.auto(false);
      process.stdout.write("synth demo: deterministic strategies for every role and each domain card's seed (model and seed settings are ignored)\n");
      // The evaluator on the committed release (the one frozen for agents), when there is one. It
      // needs nothing from the build, so it runs on a worker thread (the second core) meanwhile.
      const committed = latestVersion(SAMPLE_RELEASE.root, SAMPLE_RELEASE.name);
      const evaluating = committed === null ? null : runDemoEvaluationsInThread({ release: `${SAMPLE_RELEASE.name}@${committed}`, releasesRoot: SAMPLE_RELEASE.root, generated: opts.generated });
      if (committed !== null) process.stdout.write(`evaluating oracle, noop and the five probes on ${SAMPLE_RELEASE.name}@${committed} (E0-E3) on a second thread while the domains build\n`);
      let outcome: Awaited<ReturnType<typeof runBuild>>;
      try {
        outcome = await runBuild({ config: demoConfig(), paths: { sources: opts.sources, generated: opts.generated }, progress });
      } catch (e) {
        await evaluating?.stop();
        throw e;
      }
      const rows = outcome.domains.map((d) => {
        const stage = (name: string) => d.stages.find((s) => s.stage === name);
        const report = ValidationReport.parse(JSON.parse(readFileSync(join(opts.generated, d.domain, "validation.json"), "utf8")));
        const released = report.tasks.filter((t) => t.status === "released");
        const byDifficulty: Record<string, number> = {};
        for (const label of ["easy", "medium", "hard", "expert"]) {
          const n = released.filter((t) => t.difficulty === label).length;
          if (n > 0) byDifficulty[label] = n;
        }
        const figures = demoFigures(report, join(opts.generated, d.domain));
        const reasons = new Map<string, number>();
        for (const t of report.tasks.filter((x) => x.status === "dropped")) {
          const why = dropCause(t.drop_reason);
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
        }
        const designFailures = d.records.filter((r) => r.status === "dropped" && !r.id).length;
        if (designFailures) reasons.set("design", designFailures);
        return {
          domain: d.domain,
          documents: stage("ingest")?.items_out ?? 0,
          workflows: stage("extract_sop")?.items_out ?? 0,
          generated: d.records.length,
          repaired: report.summary.repaired,
          dropped: report.summary.dropped + designFailures,
          dropped_reasons: Object.fromEntries([...reasons].sort()),
          released: report.summary.released,
          kill_rate: report.summary.kill_rate,
          mutants: { total: report.summary.mutants_total, killed: report.summary.mutants_killed },
          difficulty: byDifficulty,
          kill_rate_all: figures.kill_rate_all,
          survivors: figures.survivors,
          probe_solve_rate: figures.probe_solve_rate,
          horizon: figures.horizon,
        };
      });
      progress.emit({ event: "run", run: outcome.run, detail: "exporting and auditing the sample release" });
      const sample = await checkSampleRelease({ domains: outcome.domains.map((d) => d.domain), generatedDir: opts.generated, sourcesDir: opts.sources });
      const table = new Table({ head: ["domain", "docs", "workflows", "task slots", "repaired", "dropped (reasons)", "released", "kill rate (released)", "kill rate (all generated)", "difficulty", "probes solve (measured)", "horizon (agent events)"] });
      for (const r of rows) {
        table.push([r.domain, r.documents, r.workflows, r.generated, r.repaired, `${r.dropped} ${Object.entries(r.dropped_reasons).map(([k, v]) => `${k}×${v}`).join(", ")}`, r.released, r.kill_rate === null ? "-" : `${(100 * r.kill_rate).toFixed(1)}% of ${r.mutants.total}`, killAll(r.kill_rate_all), Object.entries(r.difficulty).map(([k, v]) => `${k} ${v}`).join(", "), Object.entries(r.probe_solve_rate).map(([k, v]) => `${k} ${v}`).join(", "), horizonText(r.horizon)]);
      }
      const audit = sample.fresh.audit;
      const releaseLine = sample.version === null
        ? `No sample release is committed yet; the exported one audits ${audit?.ok ? "clean" : "with problems"} (root ${sample.fresh.manifest.root_hash.slice(0, 16)}).`
        : sample.identical
          ? `Sample release ${SAMPLE_RELEASE.name}@${sample.version}: rebuilt byte-identical to the committed one (root ${sample.fresh.manifest.root_hash.slice(0, 16)}); audit ${audit?.ok ? "clean" : "FAILED"}: ${audit?.golden_passed}/${audit?.tasks} golden traces replay, ${audit?.mutants.killed}/${audit?.mutants.total} violation traces still fail.`
          : `Sample release ${SAMPLE_RELEASE.name}@${sample.version}: the rebuilt release DIFFERS from the committed one in ${sample.differing.length} file(s) (${sample.differing.slice(0, 5).join(", ")}${sample.differing.length > 5 ? ", …" : ""}). A change that alters the release must bump its version: synth release ${SAMPLE_RELEASE.name} --version <next>.`;
      if (evaluating) progress.emit({ event: "run", run: outcome.run, detail: "waiting for the evaluation of the committed sample release" });
      const evaluation = evaluating ? await evaluating.result : null;
      mkdirSync(opts.generated, { recursive: true });
      const md = [
        "# Demo summary",
        "",
        `Run \`${outcome.run}\`, deterministic strategies, no model.`,
        "",
        "| domain | documents | workflows | task slots | repaired | dropped | released | kill rate (released) | kill rate (all generated) | difficulty | probes solve (measured, released tasks) | horizon (agent events per golden trace) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
        ...rows.map((r) => `| ${r.domain} | ${r.documents} | ${r.workflows} | ${r.generated} | ${r.repaired} | ${r.dropped} (${Object.entries(r.dropped_reasons).map(([k, v]) => `${k}: ${v}`).join("; ") || "none"}) | ${r.released} | ${r.kill_rate === null ? "-" : `${(100 * r.kill_rate).toFixed(1)}% (${r.mutants.killed}/${r.mutants.total})`} | ${killAll(r.kill_rate_all)} | ${Object.entries(r.difficulty).map(([k, v]) => `${k} ${v}`).join(", ")} | ${Object.entries(r.probe_solve_rate).map(([k, v]) => `${k} ${v}`).join(", ")} | ${horizonText(r.horizon)} |`),
        "",
        ...(rows.some((r) => r.survivors.length > 0) ? ["Surviving violation traces over all generated tasks, and what repair did:", "", ...rows.flatMap((r) => r.survivors.map((s) => `- ${r.domain}/${s}`))] : ["No violation trace survived on any generated task."]),
        "",
        releaseLine,
        "",
        ...(evaluation ? [evaluation.markdown] : []),
      ].join("\n");
      const mdFile = join(opts.generated, "demo-summary.md");
      writeFileSync(mdFile, md);
      writeFileSync(join(opts.generated, "demo-summary.json"), `${JSON.stringify({ run: outcome.run, domains: rows, sample_release: { version: sample.version, identical: sample.identical, differing: sample.differing, root_hash: sample.fresh.manifest.root_hash, audit: audit ? { ok: audit.ok, tasks: audit.tasks, golden_passed: audit.golden_passed, mutants: audit.mutants } : null }, evaluation: evaluation?.rows ?? null }, null, 2)}\n`);
      const evaluationLines = evaluation ? `\nEvaluation of ${SAMPLE_RELEASE.name}@${sample.version} (strict success per condition, deterministic customer):\n${evaluation.table}\nReports: ${evaluation.rows.map((r) => r.report).join(", ")}\n` : "";
      process.stdout.write(`${table.toString()}\n${releaseLine}\n${evaluationLines}Summary written to ${mdFile}\n`);
      if (sample.identical === false || (audit && !audit.ok)) process.exitCode = 1;
    });
}
