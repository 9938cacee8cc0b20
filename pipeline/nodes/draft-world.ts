import { existsSync } from "node:fs";
import { join } from "node:path";
import { interrupt } from "@langchain/langgraph";
import { FoundryError } from "../core/errors.js";
import { services, type NodeConfig } from "../build/services.js";
import { cardEnvironment } from "../sources/card-environment.js";
import { writeDraft } from "../agents/environment-builder/write-draft.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";

/**
 * draft world: a domain folder with documents and a card but no `world.yaml` gets one from the
 * environment builder's llm strategy (checked and corrected in its loop), written with its review
 * list `sop/<domain>/world-review.json`. It runs first, before ingest, because the SOP extractor
 * reads the world's operations. A domain that has a world.yaml is never redrafted. Without a model
 * for the role the build stops, saying how to draft one: the deterministic draft is a person's
 * starting point (`synth draft-world`), never built unreviewed.
 */
export async function draftWorld(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const dir = join(state.paths.sources, state.domain);
  const file = join(dir, "world.yaml");
  // A simulated-only domain has no world: the environment builder writes a simulator's configuration instead (nodes/simulated-environment.ts).
  if (existsSync(file) || cardEnvironment(dir) === "simulated") return {};
  const svc = services(config);
  svc.onNode?.("draft_world");
  if (!svc.worldDrafter) {
    throw new FoundryError(
      "WORLD_MISSING",
      `the domain has no world.yaml. Draft it from the documents with \`synth draft-world ${state.domain}\` (deterministic: from the tool manuals; complete what its review list ${join(state.paths.sop, state.domain, "world-review.json")} names), or configure a model for the environment-builder role (FOUNDRY_MODEL_ENVIRONMENT_BUILDER=provider:model, or --model-for environment-builder=provider:model) and the build drafts it`,
      { file },
    );
  }
  svc.progress.emit({ event: "stage", domain: state.domain, stage: "draft_world", total: 1 });
  const outcome = await svc.worldDrafter.draft(dir);
  const written = writeDraft(dir, state.paths.sop, outcome);
  const s = outcome.review.summary;
  if (written.world === null) {
    const rounds = outcome.review.llm?.rounds;
    throw new FoundryError(
      "WORLD_DRAFT_FAILED",
      `the environment builder's draft of ${file} did not pass its checks${rounds !== undefined ? ` after ${rounds} round(s)` : ""}; nothing was written as world.yaml. Its last draft and problems are in ${written.review}`,
      { file: written.review },
    );
  }
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "draft_world", done: 1, total: 1, cache_hits: 0, detail: `world.yaml drafted: ${s.tables} tables, ${s.operations} operations; ${s.review_items} review item(s) in ${written.review}` });
  return { drafted: written.review, stages: [{ stage: "draft_world", items_in: 1, items_out: 1, dropped: [] }] };
}

/**
 * review world (with --review, after a draft): pause on the drafted `world.yaml` and its review
 * list before anything reads it; on approval the build goes on from the file as the person left it.
 */
export async function reviewWorld(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  if (!state.review || state.drafted === null) return {};
  services(config).onNode?.("review_world");
  const file = join(state.paths.sources, state.domain, "world.yaml");
  interrupt({ stage: "review_world", message: `review and edit the drafted ${file} (its review list ${state.drafted} says what the draft could not derive, or what to check), then approve` });
  return {};
}
