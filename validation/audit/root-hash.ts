import { contentHash } from "../../pipeline/core/canonical-json.js";

/** The manifest's `root_hash`: sha256 over the canonical JSON (RFC 8785) of its `files` map. */
export function manifestRootHash(files: Readonly<Record<string, string>>): string {
  return contentHash(files);
}
