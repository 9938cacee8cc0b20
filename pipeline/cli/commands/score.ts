import { join } from "node:path";
import type { Command } from "commander";
import { scoreDirectory } from "../../evaluate/score/score-dir.js";

interface ScoreFlags {
  release?: string;
  releases: string;
  json?: boolean;
}

/** `synth score DIR`: recompute summary.json and report.html of an evaluation from its stored traces. */
export function registerScore(program: Command): void {
  program
    .command("score")
    .description("Recompute an evaluation's summary.json and report.html from its stored traces alone, re-running every check of the release.")
    .argument("<dir>", "evaluation folder (the --out of synth evaluate)")
    .option("--release <release>", "release folder or NAME@X.Y.Z (default: the one settings.json names, under --releases)")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--json", "print { summary, report, episodes, disagreements } as JSON")
    .addHelpText(
      "after",
      `
Reads settings.json and results.jsonl of DIR, verifies the release (the audit's integrity check;
its root hash must be the one the evaluation ran on), checks each trace in traces/ against the
sha256 results.jsonl recorded, re-judges every episode from its trace with the release's checks
and writes summary.json and report.html with the same writer as synth evaluate: byte for byte what
evaluate wrote, as long as the traces are the ones evaluated. results.jsonl is not changed.

A missing or changed trace, a task the release lacks or a duplicate episode is an error naming the
file (each one reported). A stored result line that re-judging does not reproduce is listed as a
disagreement: the figures follow the traces, and the command exits 1. Exit codes: 0 scored,
1 invalid input or a disagreement, 2 usage.

Examples:
  synth score generated/evaluations/sample@1.7.0/oracle
  synth score /tmp/eval --release generated/releases/sample/1.7.0 --json`,
    )
    .action(async (dir: string, flags: ScoreFlags) => {
      const out = await scoreDirectory(dir, { ...(flags.release !== undefined ? { release: flags.release } : {}), releases: flags.releases });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ summary: out.summaryPath, report: out.reportPath, episodes: out.episodes, disagreements: out.disagreements }, null, 2)}\n`);
      } else {
        process.stdout.write(`scored ${out.episodes} episodes of ${out.summary.agent} on ${out.summary.release.name}@${out.summary.release.version}\n`);
        process.stdout.write(`summary: ${out.summaryPath}\nreport:  ${out.reportPath}\n`);
        for (const d of out.disagreements) process.stdout.write(`disagrees with results.jsonl: ${d.episode} (${d.fields.join(", ")})\n`);
      }
      process.exitCode = out.disagreements.length === 0 ? 0 : 1;
    });
}
