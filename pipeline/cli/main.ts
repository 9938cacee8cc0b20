import { Command, CommanderError } from "commander";
import { EXIT, FoundryError, formatIssue } from "../core/errors.js";
import { COMMANDS } from "./commands/index.js";
import { PIPELINE_VERSION } from "../core/version.js";

/** Build the `synth` program with every command registered. */
export function buildProgram(): Command {
  const program = new Command("synth")
    .description("Benchmark foundry: turn reference documents into frozen, executable agent benchmarks.")
    .version(PIPELINE_VERSION, "-V, --version")
    .showHelpAfterError("(run with --help for usage)")
    .enablePositionalOptions()
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

/** Run the CLI; returns the exit code (0 ok, 1 invalid input or failed check, 2 usage error). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === "number" ? process.exitCode : EXIT.ok;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version also arrive here, with exit code 0.
      return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const report = errorReport(e);
    for (const line of report.lines) process.stderr.write(`synth: ${line}\n`);
    return report.exit;
  }
}

/** The causes of an error: an AggregateError (parallel branches that failed together), nested or not, is its causes. */
function causes(e: unknown): unknown[] {
  return e instanceof AggregateError && e.errors.length > 0 ? e.errors.flatMap(causes) : [e];
}

/**
 * What the CLI prints for an error that ended a command, one line per distinct cause (never
 * `AggregateError` itself), and the exit code: 2 for a usage error, 1 when every cause is a
 * FoundryError (invalid input or a failed check), 70 when any is an internal error.
 */
export function errorReport(e: unknown): { lines: string[]; exit: number } {
  const all = causes(e);
  const line = (x: unknown) => (FoundryError.is(x) ? formatIssue(x.toIssue()) : `internal error: ${(x as Error)?.stack ?? String(x)}`);
  const lines = [...new Set(all.map(line))];
  if (!all.every((x) => FoundryError.is(x))) return { lines, exit: 70 };
  return { lines, exit: all.every((x) => (x as FoundryError).code === "USAGE") ? EXIT.usage : EXIT.invalid };
}
