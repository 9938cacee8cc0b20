import type { Command } from "commander";
import Table from "cli-table3";
import { configFromEnv, parseModelFor, resolveConfig } from "../../core/config.js";
// The build itself (LangGraph, LangChain) loads only when a build or resume runs, not for --help.
import type { BuildOutcome } from "../../build/run-build.js";
import { Progress } from "../../build/progress.js";
import { dropCause } from "../../build/drop-cause.js";
import { modelFailureSummary } from "../../llm/failure-reason.js";
import { parseDomainList } from "../../core/domain-id.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ValidationReport } from "../../schemas/index.js";
import { demoFigures, figureLines } from "../../release/demo-figures.js";
import type { Backend } from "../../backend/open-backend.js";
import { backendFlags, withBackendOptions, type BackendFlags } from "../backend-options.js";
import { domainDrops, mergeOutcomes, recordUpToDate, upToDateDomains, type CliBuildOutcome } from "../../build/up-to-date-build.js";

interface BuildFlags extends BackendFlags {
  domains?: string;
  seed?: string;
  model?: string;
  modelFor: string[];
  sources: string;
  sop: string;
  generated: string;
  json?: boolean;
  review?: boolean;
}

function flagsToConfig(o: Pick<BuildFlags, "seed" | "model" | "modelFor" | "backend" | "databaseUrl">): Record<string, unknown> {
  const flags: Record<string, unknown> = backendFlags(o);
  if (o.seed !== undefined) flags.seed = Number(o.seed);
  if (o.model) flags.model = o.model;
  if (o.modelFor.length) flags.models = parseModelFor(o.modelFor);
  return flags;
}

/** "3 (solvability 2, duplicate 1)": how many were dropped and by which gate. */
function causes(reasons: readonly string[]): string {
  if (reasons.length === 0) return "";
  const by = new Map<string, number>();
  for (const r of reasons) by.set(dropCause(r, "design"), (by.get(dropCause(r, "design")) ?? 0) + 1);
  const top = [...by].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const shown = top.slice(0, 3).map(([c, n]) => `${c} ${n}`).join(", ");
  return `${reasons.length} (${shown}${top.length > 3 ? `, ${top.length - 3} more causes below` : ""})`;
}

/**
 * Drops of one stage with the same reason and the same item kind (`payment-recall on payments …`)
 * as one line, naming the first items and how many more: every reason is printed whole, but a
 * workflow that does not apply to 40 rows is one line, not 40 (report.json lists each item).
 */
function groupByReason(dropped: ReadonlyArray<{ item: string; reason: string }>): string[] {
  const groups = new Map<string, { kind: string; items: string[]; reason: string }>();
  for (const x of dropped) {
    const m = /^(.* on \S+) (\S+)$/.exec(x.item);
    const kind = m ? (m[1] as string) : "";
    const key = `${kind}\u0000${x.reason}`;
    const g = groups.get(key) ?? { kind, items: [], reason: x.reason };
    g.items.push(m ? (m[2] as string) : x.item);
    groups.set(key, g);
  }
  return [...groups.values()].map((g) => {
    const shown = g.items.length > 4 ? `${g.items.slice(0, 3).join(", ")} and ${g.items.length - 3} more` : g.items.join(", ");
    return `${g.kind ? `${g.kind} ` : ""}${shown}: ${g.reason}`;
  });
}

/** The end-of-build table: per domain and stage, items in and out and what was dropped. */
export function printOutcome(outcome: BuildOutcome | CliBuildOutcome, json: boolean, generated?: string): void {
  // Items lost to model failures make the build exit 1, with how many and why (also with --json, on stderr).
  const lost = modelFailureSummary(outcome.domains.flatMap(domainDrops));
  if (lost.length > 0) {
    process.stderr.write(`${lost.join("\n")}\n`);
    process.exitCode = 1;
  }
  if (json) {
    process.stdout.write(`${JSON.stringify({ event: "result", ...outcome, domains: outcome.domains.map((d) => ({ ...d, records: undefined })) })}\n`);
    return;
  }
  for (const d of outcome.domains.filter((x) => x.paused)) {
    process.stdout.write(`${d.domain}: paused for review at ${d.paused?.stage}: ${d.paused?.message}\n  continue with: synth resume ${outcome.run} --approve\n`);
  }
  if (outcome.domains.every((d) => d.paused)) return;
  // The table holds counts and causes; every reason is printed whole below it, one per line (a cut
  // reason hides the step or value that failed, and wrapping long cells costs cli-table3 seconds).
  const table = new Table({ head: ["domain", "stage", "in", "out", "dropped (causes)"] });
  const reasons: string[] = [];
  for (const d of outcome.domains) {
    for (const s of d.stages) {
      table.push([d.domain, s.stage, s.items_in, s.items_out, causes(s.dropped.map((x) => x.reason))]);
      for (const g of groupByReason(s.dropped)) reasons.push(`  ${d.domain} ${s.stage} ${g}`);
    }
    const failed = d.records.filter((r) => r.status === "dropped" && !r.id).length;
    table.push([d.domain, "tasks", d.records.length, d.released, `${d.dropped} dropped${failed ? ` (${failed} slots found no executable design)` : ""}`]);
  }
  for (const d of outcome.domains) {
    const validated = d.records.filter((r) => r.validation);
    const released = validated.filter((r) => r.status === "verified");
    const mutants = released.flatMap((r) => r.validation?.mutants ?? []);
    const killed = mutants.filter((m) => m.killed).length;
    const byGate = new Map<string, number>();
    for (const r of d.records.filter((x) => x.status === "dropped")) {
      const gate = dropCause(r.reason, "design");
      byGate.set(gate, (byGate.get(gate) ?? 0) + 1);
    }
    process.stdout.write(
      `${d.domain} gates: ${released.length} of ${d.records.length} task slot(s) pass every gate; violation traces ${killed}/${mutants.length} killed${mutants.length ? ` (${((100 * killed) / mutants.length).toFixed(1)}%)` : ""}; dropped by ${[...byGate].map(([g, n]) => `${g} ${n}`).join(", ") || "none"}\n`,
    );
    // The honest figures, from what the build wrote (validation.json and the golden traces).
    const reportFile = generated ? join(generated, d.domain, "validation.json") : null;
    if (reportFile && existsSync(reportFile)) {
      const report = ValidationReport.parse(JSON.parse(readFileSync(reportFile, "utf8")));
      process.stdout.write(`${figureLines(d.domain, demoFigures(report, join(generated!, d.domain))).join("\n")}\n`);
    }
  }
  const upToDate = "up_to_date" in outcome ? outcome.up_to_date : [];
  for (const u of upToDate) process.stdout.write(`${u.domain}: up to date (the outputs of ${u.run}; sources, SOP, outputs, code and settings unchanged): nothing built\n`);
  const timing = new Table({ head: ["stage", "time", "stage cache hits", "model calls", "tokens in/out"] });
  for (const s of outcome.stats) timing.push([s.stage, `${(s.ms / 1000).toFixed(2)} s`, s.cache_hits, s.model_calls, `${s.tokens_in}/${s.tokens_out}`]);
  const dropped = reasons.length > 0 ? `dropped, with their reasons:\n${reasons.join("\n")}\n` : "";
  process.stdout.write(`${table.toString()}\n${dropped}${outcome.stats.length > 0 ? `${timing.toString()}\n` : ""}${outcome.run === null ? "nothing built" : `run ${outcome.run}`}: ${outcome.domains.reduce((n, d) => n + d.released, 0)} task(s) released; stage cache ${outcome.cache.hits} hit(s), ${outcome.cache.misses} miss(es)\n`);
}

/** `synth build` and `synth resume`. */
export function registerBuild(program: Command): void {
  const collectList = (v: string, prev: string[]) => [...prev, v];
  withBackendOptions(program.command("build"))
    .description("Run the synthesis graph over domains: extract SOPs, build the world, design tasks, write checks, record golden traces, verify, repair, calibrate.")
    .option("-d, --domains <ids>", "comma-separated domain ids (default: every domain under --sources)")
    .option("--seed <n>", "override every domain card's seed")
    .option("--model <provider:model>", "model for every agent role (default: deterministic)")
    .option("--model-for <role=provider:model>", "model for one role; repeatable", collectList, [])
    .option("--sources <dir>", "domains folder", "sources")
    .option("--sop <dir>", "reviewed SOP folder", "sop")
    .option("--generated <dir>", "output folder", "generated")
    .option("--json", "machine-readable progress events and result on stdout")
    .option("--review", "pause after a world draft, after SOP extraction and after the environment build; continue with `synth resume RUN --approve`")
    .addHelpText(
      "after",
      "\nEvery build prints its run id first; if it is interrupted, `synth resume RUN_ID` (or `synth resume`\nfor the latest unfinished run) continues from the last completed step. Outputs: sop/<domain>/ and\ngenerated/<domain>/ (world.json, initial-state.sqlite, documents.json, sop.json, tasks/, golden/,\nvalidation.json, report.json). A stage whose inputs did not change is served from generated/cache/; a domain\nwhose sources, SOP, outputs, build code and settings are all unchanged since its last finished\nbuild is answered from generated/runs/up-to-date/<domain>.json without running the graph\n(nothing to build; not with --review or --backend postgres).\n\nA domain folder without world.yaml: with a model for the environment-builder role\n(--model-for environment-builder=provider:model) the build drafts it first (checked and corrected\nin a loop, written with its review list sop/<domain>/world-review.json); without one it stops and\nsays how to draft one (\`synth draft-world DOMAIN\`).\n\nA simulated-only domain (card \`environment: simulated\`, no world.yaml) needs a model for each of\nenvironment-builder, task-designer, solver, repairer, calibrator and env-sim (refused offline,\nnaming the missing ones): the models write the simulator's configuration, tasks with solution\nplans and rubrics, solve them under the simulator (rubric verifier, majority of 3), repair and\ncalibrate them; outputs: generated/<domain>/ tasks/, env-configs/, trajectories/, verdicts/,\nvalidation.json.\n\nWith --backend postgres the run is checkpointed in the database (LangGraph's Postgres checkpointer)\nand each task slot's design → checks → solve → verify → repair → calibrate is a queue item worked\nby \`synth worker\` processes on any machine; the outputs are the embedded build's, byte for byte.\n\nExamples:\n  synth build\n  synth build --domains fx-treasury --json\n  synth build --domains salmon-farm --model-for environment-builder=openai:gpt-4.1 --review",
    )
    .action(async (o: BuildFlags) => {
      const config = resolveConfig({ flags: flagsToConfig(o) });
      const paths = { sources: o.sources, sop: o.sop, generated: o.generated };
      const domains = o.domains !== undefined ? parseDomainList(o.domains, "--domains") : undefined;
      const progress = Progress.auto(Boolean(o.json));
      // Domains whose up-to-date record holds are answered without loading the graph; the rest build.
      const shortcut = config.backend === "embedded" && !o.review && !process.env.FOUNDRY_TEST_KILL_AT;
      const check = shortcut ? upToDateDomains(config, paths, domains) : null;
      const served = check?.served ?? [];
      const stale = check ? check.stale : domains;
      for (const d of served) progress.emit({ event: "done", domain: d.domain, detail: `up to date (the outputs of ${d.run}): nothing to build` });
      let built: BuildOutcome | null = null;
      if (stale === undefined || stale.length > 0) {
        const { openBackend } = await import("../../backend/open-backend.js");
        const backend = await openBackend(config);
        const { runBuild } = await import("../../build/run-build.js");
        built = await runBuild({ backend: backend.build, config, domains: stale, paths, progress, review: Boolean(o.review) }).finally(() => backend.close());
        if (shortcut) recordUpToDate(config, paths, built);
      }
      printOutcome(mergeOutcomes(check?.order ?? [], built, served), Boolean(o.json), o.generated);
    });
  withBackendOptions(program.command("resume"))
    .description("Continue a build run that crashed or was killed, from its last completed step.")
    .argument("[run]", "run id printed by `synth build` (default: the latest unfinished run)")
    .option("--generated <dir>", "output folder of the run", "generated")
    .option("--seed <n>", "must match the seed the run was started with (a resume never changes settings)")
    .option("--model <provider:model>", "must match the run's model for every role")
    .option("--model-for <role=provider:model>", "must match the run's model for that role; repeatable", collectList, [])
    .option("--approve", "approve the review the run is paused at (after `synth build --review`) and continue")
    .option("--json", "machine-readable progress events and result on stdout")
    .addHelpText(
      "after",
      "\nA run continues with the configuration it was started with (models per role, base URL, seed,\ntemperature…, stored in generated/runs/index.json). A setting given now, by flag or environment\n(FOUNDRY_MODEL, FOUNDRY_SEED, …), that differs from it is refused (RESUME_SETTINGS_CONFLICT, exit 1).\nA run started with --backend postgres resumes from its checkpoints in the database: give\n--backend postgres and --database-url (or FOUNDRY_DATABASE_URL) again; the URL is never stored.",
    )
    .action(async (run: string | undefined, o: { generated: string; json?: boolean; approve?: boolean } & Pick<BuildFlags, "seed" | "model" | "modelFor" | "backend" | "databaseUrl">) => {
      const flags = flagsToConfig(o);
      const config = resolveConfig({ flags });
      const env = configFromEnv(process.env);
      const given = { ...env, ...flags, models: { ...((env.models as Record<string, string>) ?? {}), ...((flags.models as Record<string, string>) ?? {}) } };
      // database_url is where the run's database is now, not a setting of the run.
      delete (given as Record<string, unknown>).database_url;
      let backend: Backend | null = null;
      const backendFor = async (c: typeof config) => (backend = await (await import("../../backend/open-backend.js")).openBackend(c)).build;
      const { resumeBuild } = await import("../../build/run-build.js");
      const outcome = await resumeBuild({ config, given, run, generated: o.generated, progress: Progress.auto(Boolean(o.json)), approve: Boolean(o.approve), backendFor }).finally(() => (backend as Backend | null)?.close());
      printOutcome(outcome, Boolean(o.json), o.generated);
    });
}
