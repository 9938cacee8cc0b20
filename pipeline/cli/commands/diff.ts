import { join } from "node:path";
import type { Command } from "commander";
import { diffReleases } from "../../release/diff-releases.js";
import { renderDiff } from "../../release/render-diff.js";
import { resolveReleaseDir } from "../../release/resolve-release-dir.js";

/** `synth diff A B`: what changed between two releases. */
export function registerDiff(program: Command): void {
  program
    .command("diff")
    .description("Compare two releases: files, tasks, documents and checks added, removed and changed, and the golden events that differ.")
    .argument("<a>", "older release folder, or NAME@X.Y.Z under --releases")
    .argument("<b>", "newer release folder, or NAME@X.Y.Z under --releases")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--json", "print the structured diff as JSON")
    .addHelpText(
      "after",
      `
Tasks are matched by domain and id, documents by domain and id@version, checks by task and check
id. For a changed task the output lists its field changes, its check changes and each golden-trace
event that differs (compared position by position, with microdiff paths such as args.amount).
Files that fail their manifest hash are reported as warnings; the diff still runs. Exit codes: 0
compared (whether or not anything differs), 1 a release cannot be read, 2 usage.

Examples:
  synth diff foundry-bench@1.0.0 foundry-bench@1.1.0
  synth diff generated/releases/foundry-bench/1.0.0 /tmp/rebuilt/foundry-bench/1.0.0 --json`,
    )
    .action((a: string, b: string, flags: { releases: string; json?: boolean }) => {
      const d = diffReleases(resolveReleaseDir(a, flags.releases), resolveReleaseDir(b, flags.releases));
      process.stdout.write(flags.json ? `${JSON.stringify(d, null, 2)}\n` : renderDiff(d));
      process.exitCode = 0;
    });
}
