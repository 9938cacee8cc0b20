import { z } from "zod";
import type { DomainCard, EnvConfig, SimulatedTask, SimulatedVerdict } from "../../schemas/index.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { contextText } from "./task-designer.js";
import { draftToTask, taskDraftSchema } from "./task-draft.js";

const SYSTEM =
  "You repair a task of an agent benchmark whose environment is simulated: the solver, following the task's solution plan, did not meet every rubric criterion. " +
  "Diagnose why (the plan, the scenario or a criterion is wrong) and give the corrected task. Use only the configuration's tools and cite only clause ids the documents define.";

/**
 * The repairer's llm strategy for a simulated-only task: the failed criteria (each judgment's
 * reason) shown, a diagnosis and the corrected task back, checked as the designer's answer is.
 */
export async function repairSimulatedTask(opts: LlmStrategyOptions, input: { card: DomainCard; documents: readonly KnowledgeDocument[]; config: EnvConfig; clauses: ReadonlySet<string>; task: SimulatedTask; verdict: Pick<SimulatedVerdict, "criteria"> }): Promise<{ task: SimulatedTask; diagnosis: string; action: string }> {
  const tools = new Set(input.config.tools.map((t) => t.name));
  const failed = input.verdict.criteria.filter((c) => !c.met).map((c) => `- ${c.id} (${c.votes}/${c.total} met): ${c.judgments.map((j) => j.reason).join(" | ")}`);
  const { id, domain: _d, simulated_only: _s, as_of: _a, difficulty: _f, ...current } = input.task;
  const user = [contextText(input.card, input.documents, input.config), `Task ${id} as designed:\n${JSON.stringify(current)}`, `Criteria not met by majority:\n${failed.join("\n")}`, "Give the diagnosis, what you changed, and the corrected task."].join("\n\n");
  const schema = z.object({ diagnosis: z.string().min(1).describe("Why the solver's trajectory failed."), action: z.string().min(1).describe("What was changed."), task: taskDraftSchema(tools, input.clauses, "simulated_task") }).strict().meta({ title: "simulated_repair" });
  const answer = await askModel("repairer", opts, schema, SYSTEM, user, id);
  return { task: draftToTask(answer.task, id, input.task.domain, input.task.as_of), diagnosis: answer.diagnosis, action: answer.action };
}
