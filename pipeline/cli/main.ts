// How commands load (follow this when adding one). `commands/index.ts` lists every command as one
// row: name, arguments and a one-line summary for the listing, and `load`, a dynamic import of the
// module that registers it. This file and that list import nothing but commander at the top level:
// `synth --help` (or an unknown command) builds the program from the rows alone, with no library
// loaded, so it starts in a few tens of milliseconds. Running a command, or asking for its own
// `--help`, imports only that command's module, and its imports bring the libraries it needs
// (LangGraph, LangChain, remark, vega, SQLite). Inside a command, a heavy path that only some runs
// take (audit --rebuild loads the whole synthesis graph) is imported where it is used, with
// `await import(...)`. tests/cli/lazy-commands.test.ts checks both rules.
import { Command, CommanderError } from "commander";
import { EXIT, FoundryError, formatIssue } from "../core/errors.js";
import { COMMANDS, type CommandRow } from "./commands/index.js";
import { PIPELINE_VERSION } from "../core/version.js";

/** The command `argv` asks for (`synth help X` asks for X's help), or null for none. */
function requested(argv: readonly string[]): string | null {
  const words = argv.slice(2).filter((a) => !a.startsWith("-"));
  return (words[0] === "help" ? words[1] : words[0]) ?? null;
}

/**
 * The `synth` program. Commands named in `load` are registered by their own modules (full options
 * and help); every other command is listed from its row only. `load: "all"` registers every command
 * in full (tests that inspect every command's help).
 */
export async function buildProgram(load: readonly string[] | "all" = []): Promise<Command> {
  const program = new Command("synth")
    .description("Benchmark foundry: turn reference documents into frozen, executable agent benchmarks.")
    .version(PIPELINE_VERSION, "-V, --version")
    .addHelpText("after", "\nRun `synth <command> --help` for a command's description and options.")
    .showHelpAfterError("(run with --help for usage)")
    .enablePositionalOptions()
    .exitOverride();
  const wanted = (row: CommandRow) => load === "all" || load.includes(row.name);
  const loaded = new Set<(p: Command) => void>();
  for (const row of COMMANDS) {
    if (!wanted(row)) continue;
    const register = await row.load();
    if (loaded.has(register)) continue;
    loaded.add(register);
    register(program);
  }
  const registered = new Set(program.commands.map((c) => c.name()));
  for (const row of COMMANDS) {
    if (!registered.has(row.name)) program.command(`${row.name}${row.args ? ` ${row.args}` : ""}`).summary(row.summary);
  }
  // Listed in the order of COMMANDS, whichever were loaded in full.
  const order = new Map(COMMANDS.map((r, i) => [r.name, i]));
  (program.commands as Command[]).sort((a, b) => (order.get(a.name()) ?? 0) - (order.get(b.name()) ?? 0));
  return program;
}

/** Run the CLI; returns the exit code (0 ok, 1 invalid input or failed check, 2 usage error). */
export async function main(argv: string[]): Promise<number> {
  try {
    const name = requested(argv);
    const program = await buildProgram(name ? [name] : []);
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
