import { join } from "node:path";
import { FoundryError } from "../core/errors.js";
import { PIPELINE_VERSION } from "../core/version.js";
import type { BuildRecord } from "../schemas/index.js";
import { hashGeneratedFiles, BUILD_RECORD_FILE } from "../build/build-record-file.js";
import { loadValidDomain } from "../build/load-context.js";
import { sourcesHash } from "../build/sources-hash.js";
import { buildFingerprint } from "../build/stage-code.js";

/** Generated files that are the world: a difference there is a changed world, not just a changed output. */
const WORLD_FILES = new Set(["world.json", "initial-state.sqlite"]);

/**
 * Refuse a generated domain that no longer matches its build record: sources edited since the
 * build (RELEASE_STALE_SOURCES), a world or initial database that is not the one built
 * (RELEASE_STALE_WORLD), code that changed since (RELEASE_STALE_CODE), or any other generated file
 * changed, added or removed (RELEASE_STALE_BUILD). Every difference is named; the error carries the
 * code of the first kind found, in that order. Each says to rebuild.
 */
export function checkBuildRecord(record: BuildRecord, id: string, generatedDir: string, sourcesDir: string, codeFingerprint: () => string = () => buildFingerprint()): void {
  const file = join(generatedDir, BUILD_RECORD_FILE);
  if (record.domain !== id) throw new FoundryError("RELEASE_INPUT_INVALID", `the build record is for domain ${record.domain}`, { file, path: "domain" }, record.domain);
  const found: Array<{ code: string; what: string }> = [];
  const now = sourcesHash(loadValidDomain(sourcesDir));
  if (now !== record.sources_hash) found.push({ code: "RELEASE_STALE_SOURCES", what: `${sourcesDir} changed since the build (sources hash ${now.slice(0, 12)}, the build record says ${record.sources_hash.slice(0, 12)})` });
  const files = hashGeneratedFiles(generatedDir);
  const names = [...new Set([...Object.keys(files), ...Object.keys(record.files)])].sort();
  const changed = (path: string) => (files[path] === undefined ? "removed" : record.files[path] === undefined ? "added" : "changed");
  const differing = names.filter((p) => files[p] !== record.files[p]);
  const world = differing.filter((p) => WORLD_FILES.has(p));
  if (world.length > 0) found.push({ code: "RELEASE_STALE_WORLD", what: `the world is not the one built: ${world.map((p) => `${p} ${changed(p)}`).join(", ")}` });
  const code = codeFingerprint();
  if (code !== record.code_fingerprint || record.pipeline_version !== PIPELINE_VERSION) {
    found.push({ code: "RELEASE_STALE_CODE", what: `the pipeline's code changed since the build (code fingerprint ${code.slice(0, 12)}, version ${PIPELINE_VERSION}; the build record says ${record.code_fingerprint.slice(0, 12)}, version ${record.pipeline_version})` });
  }
  const other = differing.filter((p) => !WORLD_FILES.has(p));
  if (other.length > 0) found.push({ code: "RELEASE_STALE_BUILD", what: `generated files differ from the build record: ${other.slice(0, 10).map((p) => `${p} ${changed(p)}`).join(", ")}${other.length > 10 ? `, … ${other.length - 10} more` : ""}` });
  const first = found[0];
  if (first) throw new FoundryError(first.code, `${found.map((f) => f.what).join("; ")}: rebuild with synth build before releasing`, { file });
}
