import { join } from "node:path";
import type { Command } from "commander";
import { FoundryError } from "../../core/errors.js";
import { auditRelease } from "../../../validation/audit/audit-release.js";
import { renderAudit } from "../../release/render-audit.js";
import { resolveReleaseDir } from "../../release/resolve-release-dir.js";
import type { RebuildComparison } from "../../release/rebuild-release.js";

interface AuditFlags {
  releases: string;
  root?: string;
  rebuild?: boolean;
  sources: string;
  sop: string;
  json?: boolean;
}

/** `synth audit RELEASE`: verify a release's hashes and re-run its golden and violation traces. */
export function registerAudit(program: Command): void {
  program
    .command("audit")
    .description("Audit a frozen release: verify every file against the manifest, check derived files against their sources, replay every golden trace and re-run the violation traces.")
    .argument("<release>", "release folder, or NAME@X.Y.Z under --releases")
    .option("--releases <dir>", "where NAME@X.Y.Z is looked up", join("generated", "releases"))
    .option("--root <sha256>", "the root hash you expect, read from somewhere the release folder does not control; any other manifest is refused")
    .option("--rebuild", "also build the release again from --sources in a temporary folder and compare it file by file")
    .option("--sources <dir>", "domain sources for --rebuild", "sources")
    .option("--sop <dir>", "reviewed SOP folder for --rebuild", "sop")
    .option("--json", "print the full report as JSON")
    .addHelpText(
      "after",
      `
Refuses a folder that is the staging folder of an unfinished export (.X.Y.Z.partial-PID). Refuses the
release, naming each file, when a byte changed, a listed file is missing, a file is not listed, the
manifest was edited (root hash), the root hash is not the one pinned with --root, or a SQLite
database is truncated or corrupt. Checks derived files against their sources in the release:
documents.json against docs/*.md, world.json against world.yaml, initial-state.sqlite against the
world and the seed. Replays each golden trace from a fresh copy of its domain's initial state plus
the task overlay and runs its checks (all must pass), and re-runs each violation trace (it must fail
its target check, as the validation report says; a listed trace that is not stored fails the audit).
Simulated-only domains are never replayed: their files, the clauses their tasks cite, each
trajectory's sha256 and the stored rubric votes (re-voted) are checked instead.
Nothing is written into the release.

A root hash only proves what the manifest says; whoever can edit the files can recompute it. Read
the root hash from somewhere the release folder does not control and pin it with --root.

--json prints { ok, release, pinned_root, tasks, golden_passed, hash_failures: [{file, reason}],
problems, mutants: { total, killed, not_stored }, per_task, rebuild? }. Exit codes: 0 everything
holds, 1 anything failed, 2 usage.

Examples:
  synth audit generated/releases/foundry-bench/1.0.0
  synth audit foundry-bench@1.0.0 --root 3f5c…(64 hex digits) --json
  synth audit generated/releases/sample/1.7.0 --rebuild`,
    )
    .action(async (arg: string, flags: AuditFlags) => {
      if (flags.root !== undefined && !/^[0-9a-f]{64}$/.test(flags.root)) throw new FoundryError("USAGE", "--root must be a sha256 hex digest (64 lowercase hex digits)", { path: "--root" }, flags.root);
      const dir = resolveReleaseDir(arg, flags.releases);
      const report = auditRelease(dir, flags.root !== undefined ? { root: flags.root } : {});
      let rebuild: RebuildComparison | null = null;
      if (flags.rebuild && report.ok) {
        // The rebuild runs the whole synthesis graph: loaded only when asked for.
        const { rebuildAndCompare } = await import("../../release/rebuild-release.js");
        rebuild = await rebuildAndCompare(dir, { sourcesDir: flags.sources, sopDir: flags.sop });
      }
      const ok = report.ok && (rebuild === null || rebuild.identical);
      if (flags.json) process.stdout.write(`${JSON.stringify({ ...report, ok, ...(flags.rebuild ? { rebuild } : {}) }, null, 2)}\n`);
      else {
        process.stdout.write(renderAudit(report));
        if (flags.rebuild && !rebuild) process.stdout.write("rebuild: not run, the audit failed\n");
        if (rebuild) process.stdout.write(rebuild.identical ? `rebuild: identical (root ${rebuild.root_hashes[1]})\n` : `rebuild: DIFFERS (root ${rebuild.root_hashes[0]} vs rebuilt ${rebuild.root_hashes[1]}): ${rebuild.differing.join(", ")}\n`);
      }
      process.exitCode = ok ? 0 : 1;
    });
}
