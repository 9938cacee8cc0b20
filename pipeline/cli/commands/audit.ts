import { join } from "node:path";
import type { Command } from "commander";
import { auditRelease } from "../../../validation/audit/audit-release.js";
import { renderAudit } from "../../release/render-audit.js";
import { resolveReleaseDir } from "../../release/resolve-release-dir.js";

/** `synth audit RELEASE`: verify a release's hashes and re-run its golden and violation traces. */
export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("Audit a frozen release: verify every file against the manifest, replay every golden trace and re-run the violation traces.")
    .argument("<release>", "release folder, or NAME@X.Y.Z under --releases")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--json", "print the full report as JSON")
    .addHelpText(
      "after",
      `
Refuses the release, naming each file, when a byte changed, a listed file is missing, a file is
not listed, the manifest was edited (root hash), or a SQLite database is truncated or corrupt.
Otherwise replays each golden trace from a fresh copy of its domain's initial state plus the task
overlay and runs its checks (all must pass), and re-runs each stored violation trace (it must fail
its target check, as the validation report says). Nothing is written into the release.
--json prints { ok, release, tasks, golden_passed, hash_failures: [{file, reason}], problems,
mutants: { total, killed, not_stored }, per_task }. Exit codes: 0 everything holds, 1 anything
failed, 2 usage.

Examples:
  synth audit generated/releases/foundry-bench/1.0.0
  synth audit foundry-bench@1.0.0 --json`,
    )
    .action((arg: string, flags: { releases: string; json?: boolean }) => {
      const report = auditRelease(resolveReleaseDir(arg, flags.releases));
      process.stdout.write(flags.json ? `${JSON.stringify(report, null, 2)}\n` : renderAudit(report));
      process.exitCode = report.ok ? 0 : 1;
    });
}
