import { existsSync } from "node:fs";
import { join } from "node:path";
import { FoundryError, formatIssue } from "../../core/errors.js";
import { stableJson } from "../../core/canonical-json.js";
import { writeIfChanged } from "../../build/artifact-files.js";
import { WorldReview } from "../../schemas/world-review.js";
import type { WorldDraftOutcome, WorldDrafter } from "../types.js";
import { parseWorld } from "../../world/load-world.js";
import { draftWorldDeterministic } from "./deterministic.js";

/** The deterministic strategy behind the WorldDrafter interface: its draft, checked as every world is. */
export class DeterministicWorldDrafter implements WorldDrafter {
  async draft(dir: string): Promise<WorldDraftOutcome> {
    const d = draftWorldDeterministic(dir);
    const problems = parseWorld(d.yaml, "world.yaml").problems;
    if (problems.length === 0) return { yaml: d.yaml, review: d.review };
    // A draft the loader refuses is a fault of the drafter: reported, never written.
    const items = problems.map((p, i) => ({ id: `W${String(d.review.items.length + i + 1).padStart(3, "0")}`, kind: "model_errors" as const, subject: "world.yaml", what: `the draft does not load: ${formatIssue(p)}`, where: [] }));
    return { yaml: null, review: { ...d.review, world_written: false, items: [...d.review.items, ...items], summary: { ...d.review.summary, review_items: d.review.items.length + items.length } } };
  }
}

/** The path of world.yaml; refuses (DRAFT_WORLD_EXISTS) when it exists and `force` is not set. */
export function refuseExistingWorld(dir: string, force: boolean): string {
  const world = join(dir, "world.yaml");
  if (existsSync(world) && !force) {
    throw new FoundryError("DRAFT_WORLD_EXISTS", `${world} exists; a draft never replaces a world without --force (nothing was written)`, { file: world });
  }
  return world;
}

export interface WrittenDraft {
  /** world.yaml written, or null (the draft did not pass its checks). */
  world: string | null;
  review: string;
}

/**
 * Write a draft: `sources/<domain>/world.yaml` (only a draft that passed its checks; an existing
 * world.yaml only with `force`) and the review list `<sopRoot>/<domain>/world-review.json`.
 * Refuses before writing anything when world.yaml exists and `force` is not set.
 */
export function writeDraft(dir: string, sopRoot: string, outcome: WorldDraftOutcome, opts: { force?: boolean } = {}): WrittenDraft {
  const world = refuseExistingWorld(dir, opts.force === true);
  const review = join(sopRoot, outcome.review.domain, "world-review.json");
  writeIfChanged(review, stableJson(WorldReview.parse(outcome.review)));
  if (outcome.yaml === null) return { world: null, review };
  writeIfChanged(world, outcome.yaml);
  return { world, review };
}
