import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import Table from "cli-table3";
import { formatIssue } from "../../core/errors.js";
import { resolveConfig } from "../../core/config.js";
import { checkDomain, listDomainDirs } from "../../sources/check-sources.js";
import { runBuild } from "../../build/run-build.js";
import { Progress } from "../../build/progress.js";

/** `synth demo`: the offline showcase run by `npm run demo`. */
export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("Offline demonstration: check every sample domain, build it with the deterministic agents, and write a summary report.")
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
      const outcome = await runBuild({ config: resolveConfig({}), paths: { sources: opts.sources, generated: opts.generated }, progress: Progress.auto(false) });
      const rows = outcome.domains.map((d) => {
        const stage = (name: string) => d.stages.find((s) => s.stage === name);
        const byDifficulty: Record<string, number> = {};
        for (const r of d.records.filter((x) => x.status === "verified")) byDifficulty[r.task?.difficulty ?? "unlabelled"] = (byDifficulty[r.task?.difficulty ?? "unlabelled"] ?? 0) + 1;
        const reasons = new Map<string, number>();
        for (const r of d.records.filter((x) => x.status === "dropped")) {
          const why = (r.reason ?? "").replace(/ of [a-z0-9-]+-\d{3}$/, "").split(":")[0] as string;
          reasons.set(why, (reasons.get(why) ?? 0) + 1);
        }
        return {
          domain: d.domain,
          documents: stage("ingest")?.items_out ?? 0,
          workflows: stage("extract_sop")?.items_out ?? 0,
          generated: d.records.length,
          repaired: d.records.filter((r) => r.repairs.length > 0).length,
          dropped: d.dropped,
          dropped_reasons: Object.fromEntries([...reasons].sort()),
          released: d.released,
          difficulty: byDifficulty,
        };
      });
      const table = new Table({ head: ["domain", "documents", "workflows", "task slots", "repaired", "dropped (reasons)", "released", "difficulty"] });
      for (const r of rows) table.push([r.domain, r.documents, r.workflows, r.generated, r.repaired, `${r.dropped} ${Object.entries(r.dropped_reasons).map(([k, v]) => `${k}×${v}`).join(", ")}`, r.released, Object.entries(r.difficulty).map(([k, v]) => `${k} ${v}`).join(", ")]);
      mkdirSync(opts.generated, { recursive: true });
      const md = [
        "# Demo summary",
        "",
        `Run \`${outcome.run}\`, deterministic strategies, no model.`,
        "",
        "| domain | documents | workflows | task slots | repaired | dropped | released | difficulty |",
        "|---|---|---|---|---|---|---|---|",
        ...rows.map((r) => `| ${r.domain} | ${r.documents} | ${r.workflows} | ${r.generated} | ${r.repaired} | ${r.dropped} (${Object.entries(r.dropped_reasons).map(([k, v]) => `${k}: ${v}`).join("; ") || "none"}) | ${r.released} | ${Object.entries(r.difficulty).map(([k, v]) => `${k} ${v}`).join(", ")} |`),
        "",
      ].join("\n");
      const mdFile = join(opts.generated, "demo-summary.md");
      writeFileSync(mdFile, md);
      writeFileSync(join(opts.generated, "demo-summary.json"), `${JSON.stringify({ run: outcome.run, domains: rows }, null, 2)}\n`);
      process.stdout.write(`${table.toString()}\nSummary written to ${mdFile}\n`);
    });
}
