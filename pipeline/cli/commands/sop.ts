import { join } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { resolveConfig } from "../../core/config.js";
import { FoundryError, formatIssue } from "../../core/errors.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import type { Sop } from "../../schemas/sop.js";
import { IngestCache } from "../../sources/ingest.js";
import { extractDomainSop } from "../../sop/extract-domain.js";
import { LlmChunkAnswer } from "../../sop/llm-answer-schema.js";
import { renderSopFiles } from "../../sop/sop-files.js";
import { writeSopDir, type SopWriteReport } from "../../sop/write-sop-dir.js";
import { domainDir } from "../domain-dir.js";

interface SopFlags {
  force?: boolean;
  strategy: string;
  json?: boolean;
  out: string;
  sources: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function printText(dir: string, outDir: string, sop: Sop, report: SopWriteReport): void {
  for (const p of sop.problems) {
    const issue = { code: p.code, message: p.severity === "review" ? `${p.message} (for review)` : p.message, ...(p.file !== null ? { file: join(dir, p.file) } : {}), ...(p.line !== null ? { line: p.line } : {}) };
    process.stdout.write(`${formatIssue(issue)}\n`);
  }
  for (const f of report.kept) process.stdout.write(`kept ${join(outDir, f)}: edited since it was written (--force overwrites it)\n`);
  const errors = sop.problems.filter((p) => p.severity === "error").length;
  const review = sop.problems.length - errors;
  const current = sop.rules.filter((r) => r.status === "current").length;
  process.stdout.write(
    `${outDir}: ${plural(sop.workflows.length, "workflow")}, ${plural(sop.rules.length, "rule")} (${current} current); ` +
      `${plural(errors, "error")}, ${review} for review; ` +
      `${report.written.length} written, ${report.unchanged.length} unchanged, ${report.kept.length} kept, ${report.removed.length} removed\n`,
  );
}

/** `synth sop DOMAIN`: extract the domain's SOPs into `sop/<domain>/` for review. */
export function registerSop(program: Command): void {
  program
    .command("sop")
    .description("Extract structured SOPs (workflows, rules with provenance, problems) of a domain into sop/<domain>/ for review.")
    .argument("<domain>", "domain folder, or a domain id under --sources")
    .option("--strategy <name>", "deterministic (structure of the documents) or llm (also a model reading prose documents)", "deterministic")
    .option("--force", "overwrite files a person has edited since they were written")
    .option("--json", "print a machine-readable report")
    .option("--out <dir>", "folder that holds sop/<domain>/", "sop")
    .option("--sources <dir>", "folder that holds the domains", "sources")
    .addHelpText(
      "after",
      `
Writes sop/<domain>/meta.json, documents.json, rules.json, problems.json and workflows/<id>.json
(sorted keys, stable order) plus .hashes.json, the hash of each file as written. Edit the files to
review them: a rerun keeps every file changed by hand (and says so) unless --force; a rerun over
unchanged sources rewrites nothing. Problems are printed as \`file:line: [CODE] message\`;
"(for review)" marks what the extractor could not give a meaning to. The llm strategy uses the
model configured for the sop-extractor role (FOUNDRY_MODEL, FOUNDRY_MODEL_SOP_EXTRACTOR or
foundry.config.yaml). Exit codes: 0 no errors, 1 errors in the sources (files are still written
for what extracted cleanly), 2 usage.

Examples:
  synth sop fx-treasury
  synth sop sources/ed-triage --json
  synth sop customs-clearance --force
  FOUNDRY_MODEL=ollama:qwen3 synth sop fx-treasury --strategy llm`,
    )
    .action(async (arg: string, flags: SopFlags) => {
      if (flags.strategy !== "deterministic" && flags.strategy !== "llm") {
        throw new FoundryError("USAGE", "--strategy must be `deterministic` or `llm`", { path: "--strategy" }, flags.strategy);
      }
      const dir = domainDir(arg, flags.sources);
      const config = resolveConfig({});
      let runtime: LlmRuntime | null = null;
      try {
        let model;
        if (flags.strategy === "llm") {
          // Loaded only here: the model layer (providers, response cache) is not needed otherwise.
          const { createLlmRuntime } = await import("../../llm/llm-runtime.js");
          runtime = createLlmRuntime(config);
          model = runtime.chatModel({ role: "sop-extractor", stage: "extract-sops", schemaForKey: z.toJSONSchema(LlmChunkAnswer, { io: "input" }) });
          if (!model) throw new FoundryError("USAGE", "the llm strategy needs a model for the sop-extractor role (set FOUNDRY_MODEL or FOUNDRY_MODEL_SOP_EXTRACTOR)", { path: "--strategy" }, "llm");
        }
        const sop = await extractDomainSop(dir, {
          strategy: flags.strategy,
          cache: new IngestCache({ dir: join(config.cache_dir, "ingest") }),
          ...(model ? { model, llm: { concurrency: config.concurrency, native: config.structured_output === "native" } } : {}),
        });
        const outDir = join(flags.out, sop.domain);
        const report = writeSopDir(outDir, renderSopFiles(sop), { force: flags.force === true });
        const errors = sop.problems.filter((p) => p.severity === "error").length;
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ ok: errors === 0, domain: sop.domain, out: outDir, strategy: sop.strategy, workflows: sop.workflows.length, rules: sop.rules.length, errors, review: sop.problems.length - errors, problems: sop.problems, files: report }, null, 2)}\n`,
          );
        } else printText(dir, outDir, sop, report);
        process.exitCode = errors === 0 ? 0 : 1;
      } finally {
        runtime?.close();
      }
    });
}
