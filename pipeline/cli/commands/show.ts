import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Command } from "commander";
import { renderHtml } from "../../show/render-html.js";
import { renderText } from "../../show/render-text.js";
import { showReleaseTask } from "../../show/show-task.js";
import { isEvaluationDir, showEpisode } from "../../show/show-episode.js";

/** `synth show RELEASE TASK` / `synth show RUN_DIR EPISODE`: a task on its golden trace or an evaluated episode, with checks and the clauses behind them, for review. */
export function registerShow(program: Command): void {
  program
    .command("show")
    .description("Show a released task for review: the task and customer, its documents, the golden trace event by event with the clause behind each step and the rows it changed, and every check with its provenance and the violation traces that target it. On an evaluation folder, the same view of one evaluated episode with each failed check's reason at its deciding event.")
    .argument("<release>", "release folder, NAME@X.Y.Z or NAME (its newest version) under --releases; or an evaluation folder written by synth evaluate")
    .argument("<task>", "task id; for an evaluation folder, the episode as domain/task/condition/run")
    .option("--releases <dir>", "where NAME and NAME@X.Y.Z are looked up", join("generated", "releases"))
    .option("--strict", "refuse a release whose files do not match its manifest (exit 1 naming them) instead of warning")
    .option("--json", "print the view as one JSON object (schema: pipeline/show/task-view.ts)")
    .option("--html <out>", "write the view as one self-contained HTML page to this file (the terminal gets its path)")
    .addHelpText(
      "after",
      `
The release is verified against its manifest first; a file that does not match is named on stderr
as a warning before the view is shown, and --strict refuses the release instead. An unknown task id exits 1 and lists the nearest ids. On an evaluation folder
the release it names is looked up under --releases (its root hash must be the one evaluated) and
the episode's trace must have the sha256 results.jsonl recorded; an unknown episode lists the
nearest episode ids. Without --json a text
view goes to the terminal (bold headings on a TTY). --html writes a page with no script and nothing
fetched, with anchors #event-N and #check-ID for review comments. Exit codes: 0 shown, 1 invalid input, 2 usage.

Examples:
  synth show sample customs-clearance-001
  synth show sample@1.0.0 fx-treasury-003 --json
  synth show sample ed-triage-001 --html /tmp/ed-triage-001.html
  synth show generated/evaluations/sample@1.7.0/probe:fact-guesser fx-treasury/fx-treasury-003/E0/0`,
    )
    .action((release: string, taskId: string, flags: { releases: string; strict?: boolean; json?: boolean; html?: string }) => {
      const view = isEvaluationDir(release) ? showEpisode(release, taskId, flags.releases, { strict: flags.strict === true }) : showReleaseTask(release, taskId, flags.releases, { strict: flags.strict === true });
      if (flags.html) {
        mkdirSync(dirname(flags.html), { recursive: true });
        writeFileSync(flags.html, renderHtml(view));
      }
      if (flags.json) process.stdout.write(`${JSON.stringify(view, null, 2)}\n`);
      else if (flags.html) process.stdout.write(`wrote ${flags.html}\n`);
      else process.stdout.write(renderText(view, { color: process.stdout.isTTY === true }));
      process.exitCode = 0;
    });
}
