import { join } from "node:path";
import type { Command } from "commander";
import { reviewRelease } from "../../show/review-release.js";

/** `synth review RELEASE --out DIR`: the review page of every task of a release plus an index, for walking a release in a browser. */
export function registerReview(program: Command): void {
  program
    .command("review")
    .description("Write the review of a whole release: the synth show page of every task on its golden trace (DIR/<domain>/<task>.html) and DIR/index.html, tasks by domain and difficulty with their numbers of checks and violation traces, each linking to its page.")
    .argument("<release>", "release folder, NAME@X.Y.Z or NAME (its newest version) under --releases")
    .requiredOption("--out <dir>", "folder the pages and index.html are written to (created; existing pages of the same tasks are overwritten)")
    .option("--releases <dir>", "where NAME and NAME@X.Y.Z are looked up", join("generated", "releases"))
    .option("--strict", "refuse a release whose files do not match its manifest (exit 1 naming them) instead of warning")
    .addHelpText(
      "after",
      `
The release is verified against its manifest first. A file that does not match is named on stderr
as a warning and the pages are written anyway (the index names the files too); --strict refuses
the release instead. Progress (one line per page) goes to stderr, the index path to stdout.
Pages have no script and fetch nothing. Exit codes: 0 written, 1 invalid input, 2 usage.

Examples:
  synth review sample --out /tmp/review
  synth review sample@1.7.0 --out /tmp/review --strict`,
    )
    .action((release: string, flags: { out: string; releases: string; strict?: boolean }) => {
      const r = reviewRelease(release, flags.out, { releasesRoot: flags.releases, strict: flags.strict === true, progress: (line) => process.stderr.write(`${line}\n`) });
      process.stdout.write(`wrote ${r.index} (${r.pages.length} task pages)\n`);
      process.exitCode = 0;
    });
}
