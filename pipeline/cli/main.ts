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
    if (FoundryError.is(e)) {
      process.stderr.write(`synth: ${formatIssue(e.toIssue())}\n`);
      return e.code === "USAGE" ? EXIT.usage : EXIT.invalid;
    }
    // Parallel branches that fail together arrive as one AggregateError: print each distinct cause.
    if (e instanceof AggregateError && e.errors.length > 0) {
      const lines = [...new Set(e.errors.map((x) => (FoundryError.is(x) ? formatIssue(x.toIssue()) : `internal error: ${(x as Error)?.stack ?? String(x)}`)))];
      for (const line of lines) process.stderr.write(`synth: ${line}\n`);
      return e.errors.every((x) => FoundryError.is(x)) ? EXIT.invalid : 70;
    }
    process.stderr.write(`synth: internal error: ${(e as Error).stack ?? String(e)}\n`);
    return 70;
  }
}
