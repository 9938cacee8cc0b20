import { FoundryError } from "../core/errors.js";
import { services, type NodeConfig } from "../build/services.js";
import { SIMULATED_ROLES } from "../build/strategies.js";
import type { BuildStateType, BuildUpdate } from "../graph/state.js";
import { writeSimulatedEnvironment } from "../agents/simulated/config-writer.js";
import { simulatedDomain, simulatedModel } from "./simulated-domain.js";

/**
 * simulated environment: the first node of a simulated-only domain's branch (`environment:
 * simulated` on its card, no world.yaml). Every role of the branch needs a model: without one for
 * each of them the build stops here, naming the roles that lack one — there is no deterministic
 * way to simulate an environment that has no world. With them, the environment builder's model
 * writes the simulator's configuration from the documents (agents/simulated/config-writer.ts).
 */
export async function simulatedEnvironment(state: BuildStateType, config?: NodeConfig): Promise<BuildUpdate> {
  const svc = services(config);
  svc.onNode?.("simulated_environment");
  const missing = SIMULATED_ROLES.filter((r) => !svc.simulated?.[r]);
  if (missing.length > 0) {
    throw new FoundryError(
      "SIMULATED_NEEDS_MODELS",
      `${state.domain} is a simulated-only domain (environment: simulated, no world.yaml): building it needs a model for ${missing.join(", ")} (configure each with --model-for ROLE=provider:model or FOUNDRY_MODEL_<ROLE>, or --model for every role); nothing is built offline`,
      { file: `${state.paths.sources}/${state.domain}/domain.yaml`, path: "environment" },
      "simulated",
    );
  }
  const domain = simulatedDomain(state);
  const builder = simulatedModel(svc, "environment-builder");
  const draft = await writeSimulatedEnvironment({ model: builder.model, native: builder.native }, domain.card, domain.documents);
  svc.progress.emit({ event: "stage_done", domain: state.domain, stage: "simulated_environment", done: draft.operations.length, total: draft.operations.length, cache_hits: 0 });
  return { simEnvironment: draft, stages: [{ stage: "simulated_environment", items_in: domain.documents.length, items_out: draft.operations.length, dropped: [] }] };
}
