import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { FoundryError } from "../core/errors.js";
import { Sop, type ReleaseManifest } from "../schemas/index.js";
import { compileWorld } from "../world/compile-world.js";
import type { InitialState } from "../world/build-state.js";
import { findReleaseDir } from "../evaluate/load-release.js";
import { verifyIntegrity, type ReleaseFiles } from "../../validation/audit/verify-integrity.js";
import { parseReleaseDomain, releaseDomainIds, type ReleaseDomain } from "../../validation/audit/parse-release.js";
import { isSimulatedDomain } from "../../validation/audit/audit-simulated.js";
import { storedState } from "../../validation/audit/audit-task.js";
import { domainFiles } from "../../validation/audit/release-layout.js";

/** One domain of a release as `synth show` reads it: parsed artifacts, base state, SOP, document lines. */
export interface ShowDomain {
  parsed: ReleaseDomain;
  base: InitialState;
  sop: Sop | null;
  /** `id@version` → the lines of that document file (front matter included: provenance counts file lines). */
  lines: Map<string, string[]>;
}

/** A verified release opened for review. */
export interface ShowRelease {
  dir: string;
  manifest: ReleaseManifest;
  domains: Map<string, ShowDomain>;
  /** Files that do not match the manifest (shown only after a warning naming them; empty when verified). */
  unverified: ReadonlyArray<{ file: string; reason: string }>;
  /** Simulated-only domains of the release: not shown (no world, checks or golden traces). */
  simulated: string[];
}

/** How a release whose hashes fail is treated: `strict` refuses it, otherwise `warn` gets one line per failing file first. */
export interface OpenOptions {
  strict?: boolean;
  warn?: (line: string) => void;
}

function docLines(contents: ReleaseFiles, domain: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const prefix = `domains/${domain}/docs/`;
  for (const file of contents.keys()) {
    if (!file.startsWith(prefix) || !file.endsWith(".md")) continue;
    const text = (contents.get(file) as Buffer).toString("utf8");
    const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
    if (!fm) continue;
    const meta = parseYaml(fm[1] as string) as { id?: unknown; version?: unknown } | null;
    if (meta && typeof meta.id === "string" && meta.version !== undefined) out.set(`${meta.id}@${String(meta.version)}`, text.split(/\r?\n/));
  }
  return out;
}

/**
 * Open a release for review: every file is checked against the manifest with the audit's
 * integrity check first. A release whose hashes fail is refused under `strict` (one error per bad
 * file); otherwise each failing file is named through `warn` before anything of it is shown, so a
 * reviewer never audits content that is not the published release without being told. A release
 * with no readable manifest, or whose files do not parse, is always refused.
 */
export function openShowRelease(arg: string, root?: string, opts: OpenOptions = {}): ShowRelease {
  const dir = findReleaseDir(arg, root);
  const integrity = verifyIntegrity(dir);
  const refuse = (failures: ReadonlyArray<{ file: string; reason: string }>): never => {
    const errors = failures.map((f) => new FoundryError("RELEASE_TAMPERED", `refusing to show: ${f.reason}`, { file: join(dir, f.file) }));
    throw errors.length === 1 ? errors[0] : new AggregateError(errors, `refusing to show ${dir}: ${errors.length} files do not match the manifest`);
  };
  if (!integrity.manifest) refuse(integrity.failures.length > 0 ? integrity.failures : [{ file: "manifest.json", reason: "no manifest" }]);
  if (integrity.failures.length > 0) {
    if (opts.strict) refuse(integrity.failures);
    const warn = opts.warn ?? ((line: string) => process.stderr.write(`${line}\n`));
    warn(`warning: ${dir} does not match its manifest (${integrity.failures.length} ${integrity.failures.length === 1 ? "file" : "files"}); showing it anyway, --strict refuses it:`);
    for (const f of integrity.failures) warn(`warning: ${join(dir, f.file)}: [RELEASE_TAMPERED] ${f.reason}`);
  }
  const manifest = integrity.manifest!;
  const problems: Array<{ file: string; reason: string }> = [];
  const domains = new Map<string, ShowDomain>();
  const simulated: string[] = [];
  for (const id of releaseDomainIds(manifest)) {
    // A simulated-only domain has no world, checks or golden traces to show: left out (findTask says so for its tasks).
    if (isSimulatedDomain({ manifest, contents: integrity.contents }, id)) {
      simulated.push(id);
      continue;
    }
    const parsed = parseReleaseDomain({ manifest, contents: integrity.contents }, id, problems);
    if (!parsed.card || !parsed.world || !parsed.state) continue;
    const compiled = compileWorld(parsed.world, domainFiles(id).world);
    const sopBytes = integrity.contents.get(domainFiles(id).sop);
    let sop: Sop | null = null;
    if (sopBytes) {
      const r = Sop.safeParse(JSON.parse(sopBytes.toString("utf8")));
      if (r.success) sop = r.data;
      else problems.push({ file: domainFiles(id).sop, reason: `schema: ${r.error.issues[0]?.message ?? "invalid"}` });
    }
    domains.set(id, { parsed, base: storedState(compiled, parsed.state, parsed.card.generation.seed), sop, lines: docLines(integrity.contents, id) });
  }
  if (problems.length > 0) refuse(problems);
  return { dir, manifest, domains, unverified: integrity.failures, simulated };
}
