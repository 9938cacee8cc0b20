import { knowledgeDocument } from "../../pipeline/sources/knowledge-document.js";
import type { z } from "zod";
import { cpSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { DomainCard, Sop, Task, ValidationReport, type PlanStep, type Trace, TaskValidation } from "../../pipeline/schemas/index.js";
import { parseYaml } from "../../pipeline/core/yaml-source.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { runMutants } from "../../validation/mutants/run-mutants.js";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { applyOverlay, buildBaseState } from "../../pipeline/world/build-state.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { Episode } from "../../pipeline/world/episode.js";
import type { KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { loadDomain } from "../../pipeline/sources/load-domain.js";
import { runChecks, strictSuccess } from "../../validation/checks/index.js";
import { violationLabel } from "../../validation/audit/release-layout.js";
import { AGENT_ROLES } from "../../pipeline/core/config.js";
import { contentHash } from "../../pipeline/core/canonical-json.js";
import { PIPELINE_VERSION } from "../../pipeline/core/version.js";
import { writeBuildRecord } from "../../pipeline/build/build-record-file.js";
import { loadValidDomain } from "../../pipeline/build/load-context.js";
import { sourcesHash } from "../../pipeline/build/sources-hash.js";
import { buildFingerprint } from "../../pipeline/build/stage-code.js";
import { renderEnvConfig } from "../../pipeline/world/env-config/render-env-config.js";
import { splitEnvConfig } from "../../pipeline/world/env-config/env-config-parts.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";

/**
 * Builds a tiny generated domain (`generated/mini-treasury/` as the synthesis graph lays it out)
 * from the runtime's fixture world and the task files in tests/fixtures/release/. Golden and
 * violation traces are recorded by running plans through the episode runtime, and the validation
 * report is computed by running the checks on them, so every claim in it is true.
 */

export const DOMAIN = "mini-treasury";
const FIXTURE = fileURLToPath(new URL("../fixtures/release/", import.meta.url));
const WORLD_FILE = fileURLToPath(new URL("../fixtures/world/world.yaml", import.meta.url));

type Variant = "a" | "b";

/** Where the violation traces come from: plans scripted here, or the mutation operators of validation/mutants (as the graph's verify stage runs them); both are stored as the collect stage stores them. */
export type MutantSource = "scripted" | "operators";

/** The smallest SOP the operators can read (no workflows: reordering does not apply). */
const MINIMAL_SOP = { domain: DOMAIN, strategy: "deterministic", sources_hash: "fixture", documents: [], workflows: [], rules: [], problems: [] };

/** Violation plans per task: operator → (target check, plan). */
const MUTANTS: Record<string, Record<string, { target: string; plan: (steps: PlanStep[]) => PlanStep[] }>> = {
  "move-funds": {
    do_nothing: { target: "transfer-executed", plan: () => [] },
    drop_approval: { target: "transfer-executed", plan: (steps) => steps.filter((s) => s.operation === "execute_transfer") },
  },
  "release-payment": {
    do_nothing: { target: "payment-released", plan: () => [] },
    touch_protected: {
      target: "acc2-untouched",
      plan: (steps) => [...steps, { step: 3, actor: "agent", operation: "adjust_account", args: { account_id: "ACC-002", balance: 1, floor: 0 }, workflow: null, sop_step: null, why: "mutant" }],
    },
  },
  "memo-payment": { do_nothing: { target: "memo-written", plan: () => [] } },
};

const RELEASED: Record<Variant, string[]> = { a: ["move-funds", "release-payment"], b: ["memo-payment", "move-funds"] };
const DROPPED: Record<Variant, string[]> = { a: ["stale-quote"], b: ["stale-quote"] };

function readTask(id: string, variant: Variant): Task {
  let text = readFileSync(join(FIXTURE, "tasks", `${id}.json`), "utf8");
  // The "next version": the client asks for 6,000 instead of 5,000.
  if (variant === "b" && id === "move-funds") text = text.replaceAll('"amount": 5000', '"amount": 6000').replaceAll("5,000", "6,000");
  return Task.parse(JSON.parse(text));
}

function write(file: string, text: string | Buffer): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export interface ReleaseFixture {
  generatedDir: string;
  sourcesDir: string;
}

/** Write sources/ and generated/ of the fixture domain under `root`. */
export function buildReleaseFixture(root: string, variant: Variant = "a", mutantSource: MutantSource = "scripted"): ReleaseFixture {
  const sourcesDir = join(root, "sources");
  const generatedDir = join(root, "generated");
  cpSync(join(FIXTURE, "sources"), sourcesDir, { recursive: true });
  cpSync(WORLD_FILE, join(sourcesDir, DOMAIN, "world.yaml"));
  const docsDir = join(sourcesDir, DOMAIN, "docs");
  if (variant === "b") {
    appendFileSync(join(docsDir, "payment-release-procedure.md"), "\n- **PAY-3.3** A released payment cannot be changed; file a recall instead.\n");
    write(
      join(docsDir, "memo-guidelines.md"),
      `---\nid: memo-guidelines\ntitle: Payment Memo Guidelines\nkind: faq\nversion: "1.0"\neffective_from: 2026-01-01\n---\n\n# Payment Memo Guidelines\n\nA memo names the client's invoice, in the client's words, in at most 80 characters.\n`,
    );
  }
  const world = loadWorld(WORLD_FILE, "world.yaml");
  const base = buildBaseState(world, { seed: 7 });
  const documents: KnowledgeDocument[] = loadDomain(join(sourcesDir, DOMAIN)).documents.map(knowledgeDocument);
  const gen = join(generatedDir, DOMAIN);
  write(join(gen, "world.json"), stableJson(world));
  write(join(gen, "initial-state.sqlite"), base.buffer);
  write(join(gen, "documents.json"), stableJson(documents));
  const sop = Sop.parse(MINIMAL_SOP);
  if (mutantSource === "operators") write(join(gen, "sop.json"), stableJson(sop));
  const card = DomainCard.parse(parseYaml(readFileSync(join(sourcesDir, DOMAIN, "domain.yaml"), "utf8"), "domain.yaml").source?.data);
  const ctx: DomainContext = { card, sop, world, base, documents };

  const run = (task: Task, steps: readonly PlanStep[], role: Trace["role"], label: string): Trace => {
    const initial = applyOverlay(base, world, task.initial_state);
    const e = Episode.open(initial, world, { task, role, label, documents });
    e.say("customer", task.scenario.opening_request);
    for (const s of steps) e.invoke({ name: s.operation, args: s.args, actor: s.actor });
    e.say("agent", "Done.");
    const trace = e.finish();
    e.close();
    return trace;
  };
  const judge = (task: Task, trace: Trace) => {
    const ctx = createCheckContext(world, task, applyOverlay(base, world, task.initial_state));
    try {
      return runChecks(task, trace, ctx);
    } finally {
      ctx.close();
    }
  };

  const entries: Array<z.input<typeof TaskValidation>> = [];
  for (const id of [...RELEASED[variant], ...DROPPED[variant]].sort()) {
    const task = readTask(id, variant);
    write(join(gen, "tasks", `${id}.json`), stableJson(task));
    const golden = run(task, task.reference_plan, "golden", "");
    write(join(gen, "golden", `${id}.json`), stableJson(golden));
    const goldenOk = strictSuccess(judge(task, golden)).strict;
    if (!goldenOk) throw new Error(`fixture golden trace of ${id} fails its checks`);
    if (DROPPED[variant].includes(id)) {
      entries.push({ task: id, status: "dropped", gates: [{ gate: "difficulty", passed: false, detail: "solved by every probe" }], mutants: [], kill_rate: null, repairs: [], probes: { noop: false, scripted: true }, difficulty: null, drop_reason: "difficulty: solved by every probe agent" });
      continue;
    }
    // Each released task's environment configuration, as the collect stage renders it.
    const parts = splitEnvConfig(renderEnvConfig({ world: compileWorld(JSON.parse(stableJson(world)) as typeof world), state: applyOverlay(base, world, task.initial_state), task, sop, domainTitle: card.title }));
    write(join(gen, "env-configs", `${id}.json`), stableJson(parts.file));
    write(join(gen, "env-configs", "shared", `${parts.sharedHash}.json`), parts.sharedBytes);
    const seen = new Map<string, number>();
    const stored = (operator: string, trace: Trace) => {
      const n = (seen.get(operator) ?? 0) + 1;
      seen.set(operator, n);
      write(join(gen, "violations", id, `${violationLabel(operator, n)}.json`), stableJson(trace));
    };
    const mutants = mutantSource === "operators" ? runMutants(ctx, task, golden).mutants.map((m) => (stored(m.operator, m.trace), { operator: m.operator, target_check: m.target_check, killed: m.killed, failed_checks: m.failed_checks })) : Object.entries(MUTANTS[id] ?? {}).map(([operator, m]) => {
      const trace = run(task, m.plan(task.reference_plan), "violation", operator);
      write(join(gen, "violations", id, `${operator}.json`), stableJson(trace));
      const failed = judge(task, trace).filter((r) => !r.passed).map((r) => r.check);
      return { operator, target_check: m.target, killed: failed.includes(m.target), failed_checks: failed };
    });
    const killed = mutants.filter((m) => m.killed).length;
    entries.push({
      task: id,
      status: "released",
      gates: [
        { gate: "golden_replay", passed: true, detail: "replayed with no mismatch; every check passed" },
        { gate: "violations", passed: killed === mutants.length, detail: `${killed} of ${mutants.length} violation traces killed` },
      ],
      mutants,
      kill_rate: mutants.length ? killed / mutants.length : null,
      repairs: [],
      probes: {},
      difficulty: task.difficulty,
      drop_reason: null,
    });
  }
  const released = entries.filter((e) => e.status === "released");
  const all = released.flatMap((e) => e.mutants);
  const byOp: Record<string, number> = {};
  for (const op of [...new Set(all.map((m) => m.operator))].sort()) {
    const of = all.filter((m) => m.operator === op);
    byOp[op] = of.filter((m) => m.killed).length / of.length;
  }
  const report = ValidationReport.parse({
    domain: DOMAIN,
    tasks: entries,
    summary: {
      generated: entries.length,
      released: released.length,
      dropped: entries.length - released.length,
      repaired: 0,
      mutants_total: all.length,
      mutants_killed: all.filter((m) => m.killed).length,
      kill_rate: all.length ? all.filter((m) => m.killed).length / all.length : null,
      kill_rate_by_operator: byOp,
      survivors: released.flatMap((e) => e.mutants.filter((m) => !m.killed).map((m) => ({ task: e.task, operator: m.operator }))),
    },
  });
  write(join(gen, "validation.json"), stableJson(report));
  // The build record, as the collect stage writes it: what the release takes its provenance from.
  writeBuildRecord(gen, {
    domain: DOMAIN,
    pipeline_version: PIPELINE_VERSION,
    code_fingerprint: buildFingerprint(),
    seed: 7,
    strategies: { "task-designer": "deterministic" },
    models: Object.fromEntries(AGENT_ROLES.map((r) => [r, "deterministic"])),
    model_settings: {},
    sources_hash: sourcesHash(loadValidDomain(join(sourcesDir, DOMAIN))),
    sop_hash: contentHash(sop),
    world_hash: contentHash({ world, state: base.hash }),
  });
  return { generatedDir, sourcesDir };
}
