import type { NodeConfig } from "../build/services.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import type { SimulatedVerdict } from "../schemas/index.js";
import { mayRepair } from "../../validation/validate-task.js";
import { repairSimulatedTask } from "../agents/simulated/repairer.js";
import { simulatedDomain, simulatedModel, simulatedServices, taskConfig } from "./simulated-domain.js";
import { updated } from "./simulated-record.js";

/**
 * simulated repair: a failed task gets another attempt while the card's repair budget
 * (`generation.repair_attempts`, validation's mayRepair) allows one: the repairer's model reads the
 * criteria not met and rewrites the task (checked as the designer's answer), which is solved again.
 * Past the budget the task is dropped with its last reason.
 */
export async function simulatedRepair(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = simulatedServices(config, "simulated_repair");
  const domain = simulatedDomain(state);
  const repairer = simulatedModel(svc, "repairer");
  const records = [];
  for (const r of state.simRecords) {
    if (r.status !== "failed") {
      records.push(r);
      continue;
    }
    const may = mayRepair(domain.card, r.repairs.length, r.reason ?? "rubric: failed");
    if (!may.repair) {
      records.push(updated(r, { status: "dropped", reason: may.reason }));
      continue;
    }
    const fix = await repairSimulatedTask({ model: repairer.model, native: repairer.native }, { card: domain.card, documents: domain.documents, config: taskConfig(state, r.task), clauses: domain.clauses, task: r.task, verdict: r.verdict as SimulatedVerdict });
    records.push(updated(r, { task: fix.task, status: "designed", repairs: [...r.repairs, { attempt: r.repairs.length + 1, diagnosis: fix.diagnosis, action: fix.action }] }));
  }
  return { simRecords: records };
}
