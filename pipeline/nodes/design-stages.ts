import type { UnitSurvey } from "../agents/task-designer/survey.js";
import type { BuildServices } from "../build/services.js";
import type { BuildStateType, StageFigures } from "../graph/state.js";
import { domainContext } from "./domain-context.js";

/**
 * The build report's design figures: `design_units` (every unit of work surveyed, the ones that
 * work alone, and each unusable one with its reason) and `design_tasks` (slots in, tasks designed,
 * each slot that found no design with its reason). The survey is cached by SOP and world.
 */
export async function designStages(state: BuildStateType, svc: BuildServices): Promise<StageFigures[]> {
  const ctx = domainContext(state, svc);
  const { value: survey } = await svc.cache.through<UnitSurvey>("design_units", { sop: state.sopHash, world: state.worldHash }, async () => (await import("../agents/task-designer/survey.js")).surveyUnits(ctx));
  const failed = state.records.filter((r) => r.status === "dropped" && !r.id);
  return [
    { stage: "design_units", items_in: survey.units, items_out: survey.feasible, dropped: survey.unusable },
    {
      stage: "design_tasks",
      items_in: state.records.length,
      items_out: state.records.length - failed.length,
      dropped: failed.map((r) => ({ item: `slot-${r.slot + 1}`, reason: r.reason ?? "" })),
    },
  ];
}
