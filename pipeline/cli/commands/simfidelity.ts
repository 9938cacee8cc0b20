import { join } from "node:path";
import type { Command } from "commander";
import { resolveConfig } from "../../core/config.js";
import { FoundryError, quote } from "../../core/errors.js";
import { parseModelSpec } from "../../llm/model-registry.js";
import { listOption } from "../../evaluate/settings.js";
import type { FidelityFigures } from "../../evaluate/simfidelity/report-schema.js";
import { DEFAULT_RANKED_AGENTS } from "../../evaluate/simfidelity/default-agents.js";

const pct = (x: number | null) => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const line = (label: string, f: FidelityFigures) => `  ${label.padEnd(40)} calls ${f.calls}, valid ${f.valid}, status ${pct(f.status_agreement)}, fields ${pct(f.field_agreement)} of ${f.fields}, invented ${f.invented}, missing ${f.missing}`;

/** `synth simfidelity RELEASE --simulator SPEC`: an environment simulator measured against the executable world. */
export function registerSimFidelity(program: Command): void {
  program
    .command("simfidelity")
    .description("Measure an environment simulator (a model in the env-sim role) against the executable world: the release's golden traces and the agents' executable traces replayed teacher-forced, every simulated response compared with the world's real one, and the agents' ranking under the simulator compared with their executable ranking.")
    .argument("<release>", "release folder, NAME@X.Y.Z, or NAME (its newest version) under --releases")
    .option("--simulator <spec>", "the simulator's model, provider:model")
    .option("--agents <specs>", `the agents whose traces are replayed and who are ranked, comma-separated, at least two (default ${DEFAULT_RANKED_AGENTS.join(",")})`)
    .option("--tasks <ids>", "only these task ids (comma-separated)")
    .option("--domains <ids>", "only these domains (comma-separated)")
    .option("--out <dir>", "output folder (default generated/simfidelity/<release>@<version>/<simulator-slug>/)")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--json", "print the report as JSON")
    .addHelpText(
      "after",
      `
Traces replayed: every golden trace of the selected tasks, and the executable trace of every
--agents agent on them (synth evaluate --env executable at E0, one run, seed 0). For every agent
call the simulator answers (operations, query_database, wait), the simulator is given the task's
environment configuration and the trace up to the call (the world's real responses: teacher
forcing) and its answer is compared with the world's: status, field-level agreement of the
result, records invented or missing; per trace source (golden or the agent), per operation, per
domain, overall, and by position in the conversation (drift).

Ranking: each agent is also evaluated with --env simulated and this simulator (the rubric
verifier judges). Each pair of agents is ordered by strict success rate in each mode (equal rates
are a tie); a pair agrees when both modes order it the same way (a tie agrees only with a tie).
Pairwise ranking agreement = agreeing pairs / pairs compared. The evaluations are written under
<out>/evaluations/<executable|simulated>/<agent-slug>/ (started afresh each time).

Writes simfidelity.json and simfidelity.html. The release must ship environment configurations.
Needs a model: there is no offline mode. Exit codes: 0 measured, 1 invalid input, 2 usage.

Example:
  synth simfidelity sample --simulator openai:gpt-4.1-mini
  synth simfidelity sample --simulator openai:gpt-4.1-mini --agents oracle,probe:competent,probe:fact-guesser,noop`,
    )
    .action(async (release: string, f: { simulator?: string; agents?: string; tasks?: string; domains?: string; out?: string; releases: string; json?: boolean }) => {
      if (f.simulator === undefined) throw new FoundryError("USAGE", "--simulator is required: the env-sim model to measure, provider:model", { path: "--simulator" });
      try {
        parseModelSpec(f.simulator);
      } catch {
        throw new FoundryError("USAGE", `--simulator expects provider:model, got ${quote(f.simulator)}`, { path: "--simulator" }, f.simulator);
      }
      const { simFidelity, checkRankedAgents } = await import("../../evaluate/simfidelity/run-simfidelity.js");
      const agents = listOption("--agents", f.agents) ?? [...DEFAULT_RANKED_AGENTS];
      checkRankedAgents(agents);
      const r = await simFidelity({ release, releases: f.releases, simulator: f.simulator, agents, tasks: listOption("--tasks", f.tasks), domains: listOption("--domains", f.domains), ...(f.out !== undefined ? { out: f.out } : {}), config: resolveConfig({}) });
      if (f.json) process.stdout.write(`${JSON.stringify(r.report, null, 2)}\n`);
      else {
        const lines = [`${r.report.simulator} on ${r.report.release.name}@${r.report.release.version}`, line("overall", r.report.overall)];
        for (const [src, fig] of Object.entries(r.report.by_source)) lines.push(line(src, fig));
        for (const [d, fig] of Object.entries(r.report.by_domain)) lines.push(line(d, fig));
        lines.push(`  drift (second half − first half, field agreement): ${r.report.drift.change === null ? "—" : `${(r.report.drift.change * 100).toFixed(1)} pp`}`,
          ...r.report.ranking.agents.map((a) => `  ${a.agent.padEnd(40)} strict success executable ${pct(a.executable)}, simulated ${pct(a.simulated)}`),
          `  pairwise ranking agreement: ${pct(r.report.ranking.agreement)} of ${r.report.ranking.pairs.filter((p) => p.agrees !== null).length} pairs`,
          `report: ${r.jsonPath}`, `html:   ${r.htmlPath}`);
        process.stdout.write(`${lines.join("\n")}\n`);
      }
      process.exitCode = 0;
    });
}
