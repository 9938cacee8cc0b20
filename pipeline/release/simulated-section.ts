import type { SimulatedSummary } from "./collect-simulated.js";
import { table } from "./markdown-table.js";

/**
 * The datasheet's section on simulated-only tasks (none: no lines, so an executable release's
 * datasheet is unchanged): reported apart from the executable tasks, with how they were built,
 * kept and are scored.
 */
export function simulatedSection(domains: readonly SimulatedSummary[]): string[] {
  if (domains.length === 0) return [];
  const tasks = domains.reduce((n, d) => n + d.tasks.length, 0);
  const dropped = domains.flatMap((d) => d.report.tasks.filter((t) => t.status === "dropped").map((t) => `  - ${d.id}/${t.task}: ${t.drop_reason ?? "no reason recorded"}`));
  return [
    "## Simulated-only tasks",
    "",
    `${tasks} task(s) in ${domains.length} simulated-only domain(s), reported apart from the executable tasks above (the totals and tables above do not include them). Such a domain has documents but no world: its tasks run under a language-model environment simulator answering from the task's environment configuration (\`domains/<d>/env-configs/\`), and are scored by the rubric verifier only (three independent judgments per criterion, majority vote; every criterion cites the document clauses it enforces) — never by executable checks, and no executable task is scored by a rubric. Run them with \`synth evaluate --env simulated\`.`,
    "",
    table(
      ["domain", "title", "industry", "documents", "slots", "released", "dropped"],
      domains.map((d) => [d.id, d.card.title, d.card.industry, d.documents, d.report.slots, d.report.released, d.report.dropped.length]),
    ),
    "",
    table(
      ["task", "difficulty", "rubric criteria"],
      domains.flatMap((d) => d.tasks.map((t) => [`${d.id}/${t.id}`, t.difficulty ?? "uncalibrated", t.criteria])),
    ),
    "",
    "Each task was designed by a model with a solution plan and a rubric, solved with the plan under the simulator and judged by the rubric verifier (`domains/<d>/trajectories/<task>.json`, and `domains/<d>/verdicts/<task>.json` with every judgment and the trajectory's sha256), repaired within the card's budget, and kept only when the calibrator's model agent, working it without the plan, solved some but not all of its runs (the solve rate gives the difficulty). `synth audit` checks these files, that every cited clause is defined in a document of the domain, and re-votes the stored judgments; it never replays them in a world.",
    "",
    ...(dropped.length > 0 ? [`${dropped.length} simulated-only task(s) were dropped:`, ...dropped, ""] : []),
  ];
}
