import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { FoundryError } from "../../core/errors.js";
import { exportRelease } from "../../release/export-release.js";
import { parseDomainList } from "../../core/domain-id.js";

interface ReleaseFlags {
  version: string;
  domains?: string;
  out: string;
  generated: string;
  sources: string;
  revision?: string;
  replaces?: string;
  json?: boolean;
}

/** Generated domains ready to release: folders under `generated/` that hold a validation report. */
function generatedDomains(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n !== "releases" && statSync(join(dir, n)).isDirectory() && existsSync(join(dir, n, "validation.json")))
    .sort();
}

/** `synth release NAME --version X.Y.Z`: freeze generated domains into a content-hashed release. */
export function registerRelease(program: Command): void {
  // `--version X.Y.Z` belongs to this command, not to the program's `-V, --version`: program
  // options are only recognised before the command name.
  program
    .command("release")
    .description("Freeze generated domains into a read-only, content-hashed release under generated/releases/NAME/X.Y.Z/.")
    .argument("<name>", "release name (lowercase letters, digits, '-', '_')")
    .requiredOption("--version <x.y.z>", "release version; an existing version is never overwritten")
    .option("--domains <a,b>", "comma-separated domain ids (default: every generated domain with a validation.json)")
    .option("--out <dir>", "folder that holds <name>/<version>/", join("generated", "releases"))
    .option("--generated <dir>", "folder of the generated domains", "generated")
    .option("--sources <dir>", "folder of the source domains (cards and documents)", "sources")
    .option("--revision <rev>", "source revision for the manifest (default: git rev-parse HEAD of --sources, or `unknown`)")
    .option("--replaces <x.y.z>", "the version this one replaces, named in the datasheet and manifest (default: the newest older version under --out/<name>/, or none); pass the committed version when the older one was removed from the tree")
    .option("--json", "print a machine-readable summary")
    .addHelpText(
      "after",
      `
Writes, per domain, domains/<d>/{docs/*.md, documents.json, world.json, initial-state.sqlite,
tasks/*.json (released tasks only), golden/*.json, violations/<task>/*.json, domain.json}, plus
validation/<d>.json, schemas/*.schema.json, a datasheet README.md and manifest.json (sha256 of
every file, root hash, seed, pipeline version and revision, package versions, models per role).
The release is written to a hidden staging folder, audited (as \`synth audit\` would), made
read-only and renamed into place in one step: a failed or interrupted export leaves no release.
Seed and models per role come from each domain's generated/<d>/build-record.json, never from
today's configuration. The release is refused, with a message to rebuild, when the sources changed
since the build (RELEASE_STALE_SOURCES), the world or initial database is not the one built
(RELEASE_STALE_WORLD), the pipeline's code changed (RELEASE_STALE_CODE), another generated file
changed (RELEASE_STALE_BUILD), or a violation trace the build judged is missing
(RELEASE_VIOLATIONS_MISSING). Staging folders of killed exports (.X.Y.Z.partial-PID whose process
is gone) are removed. Exit codes: 0 written, 1 refused (version exists, stale or invalid input,
audit failed), 2 usage.

Examples:
  synth release foundry-bench --version 1.0.0
  synth release foundry-bench --version 1.1.0 --domains fx-treasury,ed-triage --json
  synth release demo --version 0.1.0 --revision 1c10af8 --out /tmp/releases`,
    )
    .action((name: string, flags: ReleaseFlags) => {
      const domains = flags.domains !== undefined ? parseDomainList(flags.domains, "--domains") : generatedDomains(flags.generated);
      if (domains.length === 0) throw new FoundryError("USAGE", `no domains given and no generated domain (with validation.json) under ${flags.generated}/`, { path: "--domains" });
      const { dir, manifest, audit } = exportRelease({
        name,
        version: flags.version,
        domains,
        generatedDir: flags.generated,
        sourcesDir: flags.sources,
        outRoot: flags.out,
        ...(flags.revision !== undefined ? { revision: flags.revision } : {}),
        ...(flags.replaces !== undefined ? { replaces: flags.replaces } : {}),
      });
      const files = Object.keys(manifest.files).length + 1;
      if (flags.json) {
        const summary = { ok: true, dir, name: manifest.name, version: manifest.version, root_hash: manifest.root_hash, files, counts: manifest.counts, audit: audit ? { tasks: audit.tasks, golden_passed: audit.golden_passed, mutants: audit.mutants } : null };
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      } else {
        process.stdout.write(`wrote ${dir}: ${files} files, ${manifest.counts.tasks} tasks in ${manifest.counts.domains} domain(s), root ${manifest.root_hash}\n`);
        if (audit) process.stdout.write(`audit ok: ${audit.golden_passed} of ${audit.tasks} golden traces pass; violation traces ${audit.mutants.killed} of ${audit.mutants.total} killed\n`);
      }
      process.exitCode = 0;
    });
}
