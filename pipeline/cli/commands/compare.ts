import type { Command } from "commander";
import { FoundryError } from "../../core/errors.js";
import { compareEvaluations, renderComparison } from "../../evaluate/score/compare.js";

/** `synth compare A B`: paired per-task difference in strict success between two evaluations. */
export function registerCompare(program: Command): void {
  program
    .command("compare")
    .description("Compare two evaluations of one release: the paired per-task difference in strict success (B − A) with its bootstrap interval, and the tasks that flip.")
    .argument("<a>", "evaluation folder A (the baseline)")
    .argument("<b>", "evaluation folder B")
    .option("--seed <n>", "seed of the bootstrap interval", "0")
    .option("--json", "print the comparison as JSON")
    .addHelpText(
      "after",
      `
Tasks are paired by domain and id; each side's per-task rate is its share of strict successes over
completed episodes (errored ones left out). The difference is B − A averaged over paired tasks, with
a 95% interval from a seeded bootstrap over tasks; a task flips when its rate differs. Reported over
every condition both evaluations ran ("all") and per condition. Both folders must be evaluations of
the same release (same root hash) in the same environment mode (--env: executable, simulated and
hybrid results are never paired). Exit codes: 0 compared, 1 a folder cannot be read or the
releases differ, 2 usage.

Examples:
  synth compare generated/evaluations/sample@1.7.0/noop generated/evaluations/sample@1.7.0/oracle
  synth compare A B --json`,
    )
    .action((a: string, b: string, flags: { seed: string; json?: boolean }) => {
      if (!/^\d+$/.test(flags.seed) || !Number.isSafeInteger(Number(flags.seed))) throw new FoundryError("USAGE", "--seed expects a whole number", { path: "--seed" }, flags.seed);
      const c = compareEvaluations(a, b, Number(flags.seed));
      process.stdout.write(flags.json ? `${JSON.stringify(c, null, 2)}\n` : renderComparison(c));
      process.exitCode = 0;
    });
}
