import { existsSync } from "node:fs";
import { join } from "node:path";
import { contentHash } from "../core/canonical-json.js";
import { stableJson } from "../core/canonical-json.js";
import { Sop } from "../schemas/index.js";
import { renderSopFiles, readSopDir } from "../sop/sop-files.js";
import { writeSopDir } from "../sop/write-sop-dir.js";
import { writeIfChanged } from "../build/artifact-files.js";
import { services, type NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

/**
 * extract SOPs: run the extractor, write `sop/<domain>/` (files a person edited are kept), then read
 * the reviewed SOP back: the pivot every later stage works from.
 */
export async function extractSop(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("extract_sop");
  const dir = join(state.paths.sources, state.domain);
  // An extraction with failed model calls is neither cached (the next build asks again) nor written
  // under sop/ (the committed, reviewed SOP stays as it was); its failures are errors of this stage.
  let failed: Sop | null = null;
  const { value: extracted, hit } = await svc.cache
    .through("extract_sop", { sources: state.sourcesHash, strategy: svc.strategies["sop-extractor"] }, async () => {
      const out = await svc.extractSop(dir);
      if (out.problems.some((p) => p.code === "SOP_LLM_FAILED")) {
        failed = out;
        throw new Error("extraction failed");
      }
      return out;
    })
    .catch((e: unknown) => {
      if (failed) return { value: failed as Sop, hit: false };
      throw e;
    });
  const sopDir = join(state.paths.sop, state.domain);
  const report = failed ? { kept: [] as string[] } : writeSopDir(sopDir, renderSopFiles(Sop.parse(extracted)));
  // Later stages work from the reviewed SOP on disk; after a failed extraction, from that SOP if there is one.
  const sop = !failed || existsSync(join(sopDir, "rules.json")) ? readSopDir(sopDir) : Sop.parse(extracted);
  // generated/<domain>/sop.json is what later stages load: the SOP they work from, also after a failed extraction.
  writeIfChanged(join(state.paths.generated, state.domain, "sop.json"), stableJson(sop));
  const errors = [...(failed ? (failed as Sop).problems.filter((p) => p.code === "SOP_LLM_FAILED") : []), ...sop.problems.filter((p) => p.severity === "error")];
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "extract_sop", done: sop.workflows.length, total: sop.workflows.length, cache_hits: hit ? 1 : 0, detail: `${sop.workflows.length} workflows, ${sop.rules.length} rules, ${errors.length} errors${report.kept.length ? `, kept ${report.kept.length} edited file(s)` : ""}` });
  return {
    // What later stages depend on: the procedures and rules, not the hash of the source bytes, so a
    // document edit that changes no procedure or rule leaves every later stage's cache key as it was.
    sopHash: contentHash({ ...sop, sources_hash: "" }),
    stages: [{ stage: "extract_sop", items_in: 1, items_out: sop.workflows.length, dropped: errors.map((p) => ({ item: p.file ?? p.document ?? state.domain, reason: `${p.code}: ${p.message}` })) }],
  };
}
