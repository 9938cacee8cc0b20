import type { DomainCard, EnvConfig, SimulatedTask } from "../../schemas/index.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { documentsInForce, documentsText } from "./documents-prompt.js";
import { draftToTask, taskDraftSchema } from "./task-draft.js";

const SYSTEM =
  "You design one task of an agent benchmark whose environment is simulated from a configuration. Write the customer's scenario (persona, opening request, facts only the customer knows), " +
  "one correct solution plan using only the configuration's tools (or send_message to talk to the customer), and a rubric: criteria a judge can check on the transcript, each citing the clause ids of the documents it enforces. " +
  "Cite only clause ids the documents define; use only the configuration's tools.";

/** The prompt lines both the designer and the repairer give: the domain, the documents and the configuration's tools and state. */
export function contextText(card: DomainCard, documents: readonly KnowledgeDocument[], config: EnvConfig): string {
  return [
    `Domain ${card.id}: ${card.title}. The agent is a ${card.role}; the customer is ${card.customer}. Business date ${card.as_of}.`,
    documentsText(documentsInForce(documents, card.as_of)),
    `Tools of the configuration:\n${config.tools.map((t) => `- ${t.name} (${t.kind}): ${t.description}`).join("\n")}`,
    `Initial state:\n${JSON.stringify(config.initial_state)}`,
  ].join("\n\n");
}

/**
 * The task designer's llm strategy for a simulated-only domain: one task per slot, with a solution
 * plan and a rubric. A step calling a tool the configuration lacks, or a clause id no document
 * defines, is shown to the model and asked again within the runtime's retry budget; then the build
 * fails naming the task.
 */
export async function designSimulatedTask(opts: LlmStrategyOptions, input: { card: DomainCard; documents: readonly KnowledgeDocument[]; config: EnvConfig; clauses: ReadonlySet<string>; id: string; earlier: readonly SimulatedTask[] }): Promise<SimulatedTask> {
  const tools = new Set(input.config.tools.map((t) => t.name));
  const earlier = input.earlier.length > 0 ? `Tasks designed already (design a different one):\n${input.earlier.map((t) => `- ${t.id}: ${t.title}`).join("\n")}` : "";
  const user = [contextText(input.card, input.documents, input.config), earlier, `Design task ${input.id}.`].filter(Boolean).join("\n\n");
  const draft = await askModel("task-designer", opts, taskDraftSchema(tools, input.clauses, "simulated_task"), SYSTEM, user, input.id);
  return draftToTask(draft, input.id, input.card.id, input.card.as_of);
}
