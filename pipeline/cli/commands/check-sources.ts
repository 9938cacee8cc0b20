import type { Command } from "commander";
import { formatIssue, FoundryError } from "../../core/errors.js";
import { checkDomain, listDomainDirs } from "../../sources/check-sources.js";
import { existsSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { checkDomainId } from "../../core/domain-id.js";

/** `synth check-sources [DIR...]`: validate domain folders; exit 1 when any problem is found. */
export function registerCheckSources(program: Command): void {
  program
    .command("check-sources")
    .description("Validate domain folders: the domain card, every document's front matter, and links between documents.")
    .argument("[dirs...]", "domain folders (sources/<domain>); default: every domain under sources/")
    .option("--json", "print a machine-readable report instead of lines")
    .addHelpText(
      "after",
      "\nEvery problem is printed as `file:line path: [CODE] message (got value)`; problems in one\ndocument never stop the others from being checked. Exit codes: 0 clean, 1 problems found, 2 usage.\nThe domain format is described in sources/README.md.\n\nExamples:\n  synth check-sources\n  synth check-sources sources/fx-treasury --json",
    )
    .action((dirs: string[], opts: { json?: boolean }) => {
      const targets = dirs.length > 0 ? dirs : listDomainDirs("sources");
      if (targets.length === 0) throw new FoundryError("USAGE", "no domain folders given and none found under sources/");
      for (const d of targets) {
        if (!existsSync(d)) throw new FoundryError("USAGE", "no such folder", { file: d });
        checkDomainId(basename(resolve(d)), "dirs");
        if (!existsSync(join(d, "domain.yaml")) && !existsSync(join(d, "docs")) && !existsSync(join(d, "world.yaml"))) {
          throw new FoundryError("USAGE", "not a domain folder (no domain.yaml, world.yaml or docs/)", { file: d });
        }
      }
      const results = targets.map(checkDomain);
      const total = results.reduce((n, r) => n + r.issues.length, 0);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ ok: total === 0, problems: total, domains: results }, null, 2)}\n`);
      } else {
        for (const r of results) {
          for (const i of r.issues) process.stdout.write(`${formatIssue(i)}\n`);
          const status = r.issues.length === 0 ? "ok" : `${r.issues.length} problem${r.issues.length === 1 ? "" : "s"}`;
          process.stdout.write(`${r.dir}: ${r.documents} of ${r.documentFiles} document${r.documentFiles === 1 ? "" : "s"} loaded, ${status}\n`);
        }
      }
      process.exitCode = total === 0 ? 0 : 1;
    });
}
