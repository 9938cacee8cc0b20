import { INDUSTRIES } from "../schemas/index.js";
import type { DomainSummary } from "./collect-domain.js";
import { rate, type ReleaseStats } from "./release-stats.js";
import { exerciseFigures } from "./exercise-figures.js";
import { qualityFiguresSection } from "./quality-section.js";
import { simulatedSection } from "./simulated-section.js";
import { table } from "./markdown-table.js";
import type { SimulatedSummary } from "./collect-simulated.js";

/** What the datasheet states about how the release was built (the same values the manifest holds). */
export interface BuildFacts {
  name: string;
  version: string;
  /** The version this one replaces, or null for a first version. */
  replaces: string | null;
  seed: number;
  pipeline: { version: string; revision: string };
  packages: Record<string, string>;
  models: Record<string, string>;
}

const DIFFICULTY_ORDER = ["easy", "medium", "hard", "expert", "uncalibrated"];


function limitations(domains: readonly DomainSummary[], stats: ReleaseStats, facts: BuildFacts): string[] {
  const out: string[] = [];
  const roles = Object.entries(facts.models);
  if (roles.every(([, m]) => m === "deterministic")) {
    out.push("Every agent role ran its deterministic strategy (no language model): task scenarios and the simulated customer's lines follow templates derived from the documents, not free language.");
  }
  if (stats.dropped.length > 0) {
    const shown = stats.dropped.slice(0, 10).map((d) => `  - ${d}`);
    const more = stats.dropped.length > 10 ? [`  - … and ${stats.dropped.length - 10} more (see validation/)`] : [];
    out.push([`${stats.dropped.length} generated task(s) failed validation and are not in the release:`, ...shown, ...more].join("\n"));
  }
  if (stats.survivors.length > 0) out.push(`${stats.survivors.length} violation trace(s) of released tasks survived (no check caught them), so those tasks may accept that kind of wrong execution: ${stats.survivors.join("; ")}.`);
  if (stats.mutants.total === 0) out.push("No violation traces were run on the released tasks: the checks' power to reject wrong executions is not measured.");
  if (stats.unstoredMutants > 0) out.push(`${stats.unstoredMutants} violation trace(s) listed in the validation reports are not stored in the release, so \`synth audit\` cannot re-run them.`);
  if ((facts.models.calibrator ?? "deterministic") === "deterministic") {
    out.push("Solvability is a self-consistency check of documents, world and task, not an independent verdict: the competent probe that must solve every released task is the foundry's own deterministic reader (it finds the requested work from the request's words and the procedures' titles, and follows the procedures as the foundry reads them). An independent verdict comes from model runs (the calibrator's llm strategy).");
  }
  const uncalibrated = stats.difficulty.uncalibrated ?? 0;
  if (uncalibrated > 0) out.push(`${uncalibrated} task(s) have no difficulty label: no probe agents ran on them.`);
  if (domains.length < INDUSTRIES.length) out.push(`The release covers ${new Set(domains.map((d) => d.card.industry)).size} of the ${INDUSTRIES.length} industry categories.`);
  out.push("The worlds are synthetic: fixed rows written for the tasks plus seeded generated rows; names and figures are fictitious.");
  out.push("Checks judge only what a trace records (calls, arguments, state changes, disclosed facts, timing); the wording of the agent's messages is not graded.");
  return out;
}

/** The release's README.md: what is in it, how it was built, how well it was validated, and what it cannot show. */
/** What the audit of the staged release found, stated in the datasheet. */
export interface AuditFigures {
  files: number;
  tasks: number;
  golden_passed: number;
  mutants: { total: number; killed: number };
}

export function renderDatasheet(domains: readonly DomainSummary[], stats: ReleaseStats, facts: BuildFacts, audit: AuditFigures | null = null, simulated: readonly SimulatedSummary[] = []): string {
  const industries = new Map<string, { domains: number; tasks: number }>();
  for (const d of domains) {
    const i = industries.get(d.card.industry) ?? { domains: 0, tasks: 0 };
    i.domains += 1;
    i.tasks += d.tasks.length;
    industries.set(d.card.industry, i);
  }
  const difficulty = Object.keys(stats.difficulty).sort((a, b) => (DIFFICULTY_ORDER.indexOf(a) + 1 || 99) - (DIFFICULTY_ORDER.indexOf(b) + 1 || 99) || (a < b ? -1 : 1));
  const seeds = domains.map((d) => `${d.id}: ${d.record.seed}`).join(", ");
  const validationRows = domains.map((d) => [d.id, d.report.summary.generated, d.report.summary.released, d.report.summary.dropped, d.report.summary.repaired, d.tasks.length]);
  const operators = Object.keys(stats.mutants.byOperator).sort();
  const parts = [
    `# ${facts.name} ${facts.version}`,
    "",
    facts.replaces === null ? "This is the first version of this release." : `This version replaces ${facts.name} ${facts.replaces}, which stays in the project's version history; \`synth diff\` compares the two.`,
    "",
    `A frozen, executable agent benchmark: ${stats.tasks} task(s) in ${domains.length} domain(s), built by the benchmark foundry from professional reference documents. Each task runs against its own copy of a SQLite world, with a simulated customer, and is judged by deterministic checks over the whole execution trace (strict success = Goal ∧ Process ∧ Protection). Every task's golden trace replays from the initial state and passes all its checks.${simulated.length > 0 ? ` These figures are of the executable tasks; the release also holds ${simulated.reduce((n, d) => n + d.tasks.length, 0)} simulated-only task(s), described apart in "Simulated-only tasks" below.` : ""}`,
    "",
    "Every file is listed with its sha256 in `manifest.json`. To verify the release and re-run its golden and violation traces: `synth audit <this folder>`. To compare two releases: `synth diff A B`.",
    "",
    "## What is in it",
    "",
    table(
      ["domain", "title", "industry", "documents", "tasks", "checks"],
      domains.map((d) => [d.id, d.card.title, d.card.industry, d.documents, d.tasks.length, d.tasks.reduce((n, t) => n + t.checks, 0)]),
    ),
    "",
    `Totals: ${stats.documents} document version(s), ${stats.tasks} task(s), ${stats.checks} acceptance check(s).`,
    "",
    "### Structure",
    "",
    table(
      ["domain", "documents", "distractor versions", "agent operations", "customer actions", "workflows", "scheduled events", "formal rules", "released tasks"],
      domains.map((d) => [d.id, d.documents, d.structure.distractors, d.structure.operations, d.structure.customer_actions, d.structure.workflows, d.structure.events, d.structure.rules, d.tasks.length]),
    ),
    "",
    "Distractor versions are superseded, not-yet-effective or out-of-scope documents that stay in the knowledge base and must not be followed.",
    "",
    "### What the tasks exercise",
    "",
    table(
      ["domain", "decision branches taken", "version or scope traps", "traps a wrong-version probe fails", "time decides", "invariant checked", "invariant under test", "approvals", "renewed approvals", "newest-version probe solves", "first-found probe solves"],
      domains.map((d) => {
        const f = exerciseFigures(d.tasks, d.report);
        const share = (n: number) => `${n}/${f.tasks}${f.tasks ? ` (${Math.round((100 * n) / f.tasks)}%)` : ""}`;
        return [d.id, `${f.branches.taken}/${f.branches.total}`, share(f.traps), `${f.trapsBite}/${f.traps}`, share(f.timed), share(f.invariantsChecked), share(f.invariants), share(f.approvals), share(f.renewals), share(f.newestSolves), share(f.firstFoundSolves)];
      }),
    ),
    "",
    "A decision branch is taken when a released task's state makes its condition hold (validation.json lists each branch with its tasks, or why none takes it). A trap is a check naming the clause of a version not in force that would lead to another action; it bites when a probe that follows a version not in force (newest-version, first-found) fails the task. Time decides when a task has a deadline check, a wait or a scheduled event. An invariant is checked when a task has an `invariant_holds` check on it, and under test when a violation trace breached it for one step, restored it, and the check failed on that trace. A task needs approvals when it has an \`approval_before_execution\` check; an approval is renewed when the customer corrects the approved terms right after approving them (the scenario's \`renewals\`), so the corrected terms need a proposal and an approval of their own.",
    "",
    "#### Invariants",
    "",
    table(
      ["domain", "rule", "table", "checked by", "tested by", "why untested"],
      domains.flatMap((d) => (d.report.invariants ?? []).map((i) => [d.id, i.rule, i.table, i.checked.length, i.tested.length > 0 ? i.tested.join(", ") : "–", i.reason ?? ""])),
    ),
    "",
    ...(audit
      ? [
          "### Audit",
          "",
          `\`synth audit\` on this release, run before it was published: all ${audit.files} files match the manifest; ${audit.golden_passed} of ${audit.tasks} golden traces replay from a fresh initial state and pass every check; ${audit.mutants.killed} of ${audit.mutants.total} stored violation traces still fail on the check they target.`,
          "",
        ]
      : []),
    "### By industry",
    "",
    table(["industry", "domains", "tasks"], [...industries.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, v]) => [name, v.domains, v.tasks])),
    "",
    "### Difficulty",
    "",
    table(["difficulty", "tasks"], difficulty.map((k) => [k, stats.difficulty[k] ?? 0])),
    "",
    "### Layout",
    "",
    table(
      ["path", "what"],
      [
        ["`domains/<d>/domain.json`", "domain card: title, industry, agent role, customer, business date, generation settings"],
        ["`domains/<d>/docs/*.md`", "the reference documents as written, every version (superseded and out-of-scope ones included)"],
        ["`domains/<d>/documents.json`", "the knowledge base the agent searches: every document version with its metadata and text"],
        ["`domains/<d>/world.json`", "the world model: tables, operations (agent tools), customer actions, scheduled events, formal rules"],
        ["`domains/<d>/initial-state.sqlite`", "the base initial state; each task applies its own overlay (`initial_state`) to a copy"],
        ["`domains/<d>/tasks/<task>.json`", "one task: objective, scenario, checks, reference plan"],
        ["`domains/<d>/golden/<task>.json`", "the task's golden trace; a `read_document` answer that is exactly a document version of `documents.json` is stored as `{\"$document\": \"<id>@<version>\"}` (`synth audit` and the evaluator put it back)"],
        ["`domains/<d>/violations/<task>/<operator>.json`", "violation traces (when stored, documents by reference as in golden traces): each must fail its target check"],
        ["`domains/<d>/env-configs/<task>.json`", "the task's environment configuration for a language-model simulator (its initial rows), naming its shared part"],
        ["`domains/<d>/env-configs/shared/<sha256>.json`", "the part of environment configurations tasks share (system prompt, tools, state description), filed under its sha256"],
        ["`validation/<d>.json`", "the validation report: gates, mutants, repairs, probes and drop reasons per generated task"],
        ["`schemas/*.schema.json`", "JSON Schema (draft 2020-12) of every artifact"],
        ["`manifest.json`", "sha256 of every file, root hash, seed, pipeline version and revision, package versions, models"],
      ],
    ),
    "",
    ...simulatedSection(simulated),
    "## How it was built",
    "",
    `- Pipeline version ${facts.pipeline.version}, source revision \`${facts.pipeline.revision}\`.`,
    `- Seed ${facts.seed} (build records: ${seeds}).`,
    "- Seed and models come from each domain's build record (what the build ran), not from the configuration at release time; the release was refused unless its sources, world, code and generated files still matched that record.",
    "- Models per agent role:",
    "",
    table(["role", "model"], Object.keys(facts.models).sort().map((r) => [r, facts.models[r] as string])),
    "",
    "- Package versions that shape the output:",
    "",
    table(["package", "version"], Object.keys(facts.packages).sort().map((p) => [p, facts.packages[p] as string])),
    "",
    "## Validation",
    "",
    "A task enters the release only when its golden trace replays and passes every check, its valid alternatives pass, its violation traces fail on the check they target, modified facts flip the judgment, and its scenario is consistent with the initial state.",
    "",
    table(["domain", "generated", "released", "dropped", "repaired", "in release"], validationRows),
    "",
    `Kill rate of violation traces on released tasks: ${rate(stats.mutants.killed, stats.mutants.total)}.`,
    ...(operators.length > 0
      ? ["", table(["operator", "kill rate"], operators.map((o) => [o, rate(stats.mutants.byOperator[o]?.killed ?? 0, stats.mutants.byOperator[o]?.total ?? 0)]))]
      : []),
    "",
    ...qualityFiguresSection(domains),
    "## How far to trust it",
    "",
    "`synth audit` proves that the files match `manifest.json`, that the manifest's `root_hash` covers its file list, that `documents.json` is what the documents in `docs/` give and that the initial database is what `world.json` and the seed give, and it re-runs every golden and violation trace. It cannot prove that the manifest itself is the one that was published: whoever can change a file can also recompute its hash and the root hash. A root hash is only as trustworthy as the place it was read from. Take it from a channel the release folder does not control (the publisher's announcement, a signed tag, the README of the repository that published it) and pin it:",
    "",
    "```",
    "synth audit <this folder> --root <root hash>",
    "```",
    "",
    "A mismatch exits 1 naming both hashes. With the domains' sources at hand, `synth audit <this folder> --rebuild --sources <dir>` also builds the release again in a temporary folder and compares it file by file.",
    "",
    "## Known limitations",
    "",
    ...limitations(domains, stats, facts).map((l) => `- ${l}`),
    "",
  ];
  return parts.join("\n");
}
