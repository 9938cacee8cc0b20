import type { Sop } from "../../schemas/sop.js";
import type { WorldModel } from "../../schemas/world-model.js";
import { FoundryError, formatIssue } from "../../core/errors.js";
import type { LoadedDomain } from "../../sources/load-domain.js";
import { extractLoadedSync } from "../../sop/extract-loaded.js";
import { parseWorld } from "../../world/load-world.js";
import { buildBaseState } from "../../world/build-state.js";
import { knowledgeBase } from "../../build/load-context.js";
import { surveyUnits } from "../task-designer/survey.js";

/**
 * The checks every drafted world goes through, in order: the world.yaml schema, its shorthands
 * compiled, names and references, every SQL statement prepared (parseWorld), the initial state
 * built with the card's seed, the SOP extracted against it (a procedure naming an operation the
 * draft lacks is an error there); then the task designer's feasibility survey, per workflow.
 * `problems` make the draft unusable; `feasibility` ("workflow X has no feasible unit because …")
 * leaves it usable but designs no task from that workflow.
 */

export interface DraftCheck {
  problems: string[];
  feasibility: string[];
  world: WorldModel | null;
  sop: Sop | null;
}

export function checkDraft(loaded: LoadedDomain, yaml: string): DraftCheck {
  const card = loaded.card;
  if (!card) throw new FoundryError("DRAFT_NO_CARD", "the domain card is missing or invalid", { file: loaded.root });
  const parsed = parseWorld(yaml, "world.yaml");
  if (!parsed.world) return { problems: parsed.problems.map((p) => formatIssue(p)), feasibility: [], world: null, sop: null };
  const world = parsed.world;
  let base;
  try {
    base = buildBaseState(world, { seed: card.generation.seed, epoch: card.generation.epoch });
  } catch (e) {
    if (!FoundryError.is(e)) throw e;
    return { problems: [formatIssue({ ...e.toIssue(), file: "world.yaml" })], feasibility: [], world, sop: null };
  }
  const sop = extractLoadedSync({ ...loaded, worldText: yaml }).sop;
  const sopErrors = sop.problems.filter((p) => p.severity === "error").map((p) => formatIssue({ code: p.code, message: p.message, ...(p.file !== null ? { file: p.file } : {}), ...(p.line !== null ? { line: p.line } : {}) }));
  if (sopErrors.length > 0) return { problems: sopErrors, feasibility: [], world, sop };
  const ctx = { card, sop, world, base, documents: knowledgeBase(loaded) };
  const feasibility: string[] = [];
  const current = new Set(sop.documents.filter((d) => d.status === "current").map((d) => `${d.id}@${d.version}`));
  for (const wf of sop.workflows) {
    if (!current.has(`${wf.document}@${wf.version}`)) continue;
    // The survey of this workflow alone: its units, and why each one that cannot be carried out cannot.
    const survey = surveyUnits({ ...ctx, sop: { ...sop, workflows: [wf] } });
    if (survey.feasible > 0) continue;
    const reasons = survey.unusable.map((u) => (u.item === wf.id ? u.reason : `${u.item.slice(wf.id.length + 1)}: ${u.reason}`));
    if (reasons.length === 0) continue;
    feasibility.push(`workflow ${wf.id} has no feasible unit because ${reasons.slice(0, 5).join("; ")}${reasons.length > 5 ? `; and ${reasons.length - 5} more` : ""}`);
  }
  return { problems: [], feasibility, world, sop };
}
