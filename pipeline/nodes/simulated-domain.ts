import { join } from "node:path";
import { knowledgeBase, loadValidDomain } from "../build/load-context.js";
import type { DomainCard } from "../schemas/index.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import { domainClauses } from "../../validation/simulated-task-refs.js";
import { simulatedConfig } from "../agents/simulated/config-writer.js";
import { FoundryError } from "../core/errors.js";
import type { BuildServices, NodeConfig } from "../build/services.js";
import { services } from "../build/services.js";
import type { SimulatedRole } from "../build/strategies.js";
import type { BuildStateType } from "../graph/state.js";
import type { EnvConfig, SimulatedTask } from "../schemas/index.js";
import type { WorkInput } from "../agents/simulated/work-task.js";

/** What every node of the simulated-only branch reads of the domain: its card (seed applied), documents and defined clauses. */
export interface SimulatedDomain {
  card: DomainCard;
  documents: KnowledgeDocument[];
  clauses: Set<string>;
  seed: number;
}

/** The simulated-only domain of this state, read from its sources (small: a card and documents; ingest validated them). */
export function simulatedDomain(state: BuildStateType): SimulatedDomain {
  const loaded = loadValidDomain(join(state.paths.sources, state.domain));
  const seed = state.seed ?? loaded.card.generation.seed;
  const card = { ...loaded.card, generation: { ...loaded.card.generation, seed } };
  const documents = knowledgeBase(loaded);
  return { card, documents, clauses: domainClauses(documents), seed };
}

/** A simulated-only role's model; the branch's first node refused the domain when one is missing. */
export function simulatedModel(svc: BuildServices, role: SimulatedRole) {
  const m = svc.simulated?.[role];
  if (!m) throw new FoundryError("SIMULATED_NEEDS_MODELS", `the simulated-only branch needs a model for ${role}`, { path: `models.${role}` });
  return m;
}

/** The services of a simulated-only node, with the node reported. */
export function simulatedServices(config: NodeConfig | undefined, node: string): BuildServices {
  const svc = services(config);
  svc.onNode?.(node);
  return svc;
}

/** What a run of a model agent on a task needs besides the agent, its label and whether it reads the plan (agents/simulated/work-task.ts). */
export function episodeSetting(state: BuildStateType, domain: SimulatedDomain, task: SimulatedTask, sim: { model: WorkInput["simulator"]; native: boolean }): Pick<WorkInput, "task" | "config" | "documents" | "domainTitle" | "role" | "simulator" | "native" | "seed"> {
  return { task, config: taskConfig(state, task), documents: domain.documents, domainTitle: domain.card.title, role: domain.card.role, simulator: sim.model, native: sim.native, seed: domain.seed };
}

/** A task's configuration: the domain's, dated and named for the task. */
export function taskConfig(state: BuildStateType, task: Pick<SimulatedTask, "id" | "as_of">): EnvConfig {
  if (!state.simEnvironment) throw new FoundryError("SIMULATED_STATE", `${state.domain}: no environment configuration in the build state (the simulated_environment node did not run)`);
  return simulatedConfig(state.domain, task.id, task.as_of, state.simEnvironment);
}
