import type { NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import type { SimulatedTask } from "../schemas/index.js";
import { designSimulatedTask } from "../agents/simulated/task-designer.js";
import { simulatedDomain, simulatedModel, simulatedServices, taskConfig } from "./simulated-domain.js";
import type { SimulatedRecord } from "./simulated-record.js";

/** Task id of a slot: `<domain>-001`, … */
export const simulatedTaskId = (domain: string, slot: number) => `${domain}-${String(slot + 1).padStart(3, "0")}`;

/**
 * simulated design: the task designer's model fills the card's `generation.task_count` slots, one
 * task each (a solution plan and a rubric citing clauses), in slot order, each seeing the titles of
 * the ones before it.
 */
export async function simulatedDesign(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = simulatedServices(config, "simulated_design");
  const domain = simulatedDomain(state);
  const designer = simulatedModel(svc, "task-designer");
  const records: SimulatedRecord[] = [];
  const earlier: SimulatedTask[] = [];
  for (let slot = 0; slot < domain.card.generation.task_count; slot++) {
    const id = simulatedTaskId(state.domain, slot);
    // The configuration's tools are the same for every task; its date is the card's.
    const config = taskConfig(state, { id, as_of: domain.card.as_of });
    const task = await designSimulatedTask({ model: designer.model, native: designer.native }, { card: domain.card, documents: domain.documents, config, clauses: domain.clauses, id, earlier });
    earlier.push(task);
    records.push({ slot, id, task, status: "designed", reason: null, repairs: [], trajectory: null, verdict: null, solve_rate: null });
    svc.progress.emit({ event: "item", domain: state.domain, stage: "simulated_design", done: slot + 1, total: domain.card.generation.task_count });
  }
  return { simRecords: records, stages: [{ stage: "simulated_design", items_in: records.length, items_out: records.length, dropped: [] }] };
}
