import type { Trace } from "../schemas/index.js";
import { FoundryError } from "../core/errors.js";
import { goldenTrace } from "../../validation/audit/parse-release.js";
import type { ReleaseFiles } from "../../validation/audit/verify-integrity.js";
import type { KnowledgeDocumentEntry } from "../../validation/audit/knowledge-document.js";
import { goldenFile } from "../../validation/audit/release-layout.js";

const KEPT = 64;

/**
 * Golden traces of a release read when an episode needs them: checked when the release is loaded,
 * then let go, and read again (bytes checked against the manifest by ReleaseFiles, document
 * references put back) on demand. The most recently read are kept, so an episode's agent, judge and
 * score share one parse; memory holds KEPT traces, not one per task.
 */
export class ReleaseGoldens {
  private readonly kept = new Map<string, Trace>();

  constructor(
    private readonly contents: ReleaseFiles,
    private readonly documents: ReadonlyMap<string, readonly KnowledgeDocumentEntry[]>,
  ) {}

  get(domain: string, task: string): Trace {
    const key = `${domain}/${task}`;
    const kept = this.kept.get(key);
    if (kept) {
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, kept);
      return kept;
    }
    const problems: Array<{ file: string; reason: string }> = [];
    const golden = goldenTrace(this.contents, goldenFile(domain, task), task, this.documents.get(domain) ?? [], problems);
    if (!golden) throw new FoundryError("RELEASE_CHANGED", `the golden trace of ${key} can no longer be read: ${problems[0]?.reason ?? "missing"}`, { file: problems[0]?.file ?? goldenFile(domain, task) });
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, golden);
    return golden;
  }
}
