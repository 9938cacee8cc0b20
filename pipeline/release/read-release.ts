import { FoundryError } from "../core/errors.js";
import { parseReleaseDomain, releaseDomainIds, type ReleaseDomain } from "../../validation/audit/parse-release.js";
import { verifyIntegrity, type FileFailure } from "../../validation/audit/verify-integrity.js";
import { isSimulatedDomain } from "../../validation/audit/audit-simulated.js";
import type { ReleaseManifest } from "../schemas/index.js";

/** A release read for comparison: manifest, parsed domains, and whatever did not check out. */
export interface LoadedRelease {
  dir: string;
  manifest: ReleaseManifest;
  domains: ReleaseDomain[];
  /** Integrity failures and unreadable artifacts; the diff still reports what could be read. */
  warnings: FileFailure[];
}

/** Read a release folder for diffing; only a missing or unparsable manifest is fatal. */
export function loadRelease(dir: string): LoadedRelease {
  const integrity = verifyIntegrity(dir);
  if (!integrity.manifest) {
    const why = integrity.failures[0];
    throw new FoundryError("RELEASE_INVALID", `not a readable release: ${why ? `${why.file}: ${why.reason}` : "no manifest"}`, { file: dir });
  }
  const warnings = [...integrity.failures];
  const contents = { manifest: integrity.manifest, contents: integrity.contents };
  const simulated = releaseDomainIds(integrity.manifest).filter((id) => isSimulatedDomain(contents, id));
  if (simulated.length > 0) throw new FoundryError("RELEASE_SIMULATED_UNSUPPORTED", `synth diff compares executable domains only; this release holds simulated-only domain(s) ${simulated.join(", ")} (compare their files with the manifests' sha256 meanwhile)`, { file: dir });
  const domains = releaseDomainIds(integrity.manifest).map((id) => parseReleaseDomain(contents, id, warnings));
  return { dir, manifest: integrity.manifest, domains, warnings };
}
