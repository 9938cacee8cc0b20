import { z } from "zod";
import { EnvConfig, EnvTableRows, ResultShape, StateDescription, type EnvTool } from "../../schemas/env-config.js";
import type { DomainCard } from "../../schemas/index.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import { CONVERSATION_TOOLS } from "../../world/conversation-tools.js";
import { STANDARD_TOOLS } from "../../world/standard-tools.js";
import type { StandardToolName } from "../../world/tool-names.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { documentsInForce, documentsText } from "./documents-prompt.js";

/** The reference tools a simulated-only task offers beside its operations: they read the documents, which hold no state. */
const REFERENCE_TOOLS: StandardToolName[] = ["list_reference_documents", "search_documents", "read_document"];

/** Tool names the configuration's operations may not take: the reference and conversation tools' own. */
const RESERVED = new Set<string>([...REFERENCE_TOOLS, ...CONVERSATION_TOOLS.map((t) => t.name), "query_database", "wait", "invoke_capability", "list_capabilities", "describe_capability"]);

const Operation = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/).describe("Tool name (snake_case)."),
    description: z.string().min(1).describe("What the tool does, as the agent reads it."),
    parameters: z.record(z.string(), z.unknown()).describe("JSON Schema of the arguments (type object, properties, required)."),
    access: z.enum(["read", "write"]).describe("read: changes nothing; write: changes the state."),
    preconditions: z.array(z.object({ id: z.string().min(1), message: z.string().min(1) }).strict()).describe("When the operation refuses a call, with the refusal message (from the documents' rules)."),
    effects: z.string().describe("How a successful call changes the state, in words (empty for reads)."),
    result: ResultShape.describe("The declared shape of a successful answer."),
  })
  .strict();

/** What the environment builder's model writes for a simulated-only domain. */
export const SimulatedEnvironmentDraft = z
  .object({
    system_prompt: z.string().min(1).describe("The simulator's system prompt: its role and every behavioural rule of the documents, citing clause ids."),
    operations: z.array(Operation).min(1).describe("The business operations of the agent."),
    initial_state: z.array(EnvTableRows).describe("The rows the simulator starts from."),
    row_rule: z.string().min(1).describe("How the rows of initial_state were chosen."),
    state_description: StateDescription,
  })
  .strict()
  .superRefine((d, ctx) => {
    const seen = new Set<string>();
    d.operations.forEach((o, i) => {
      if (RESERVED.has(o.name)) ctx.addIssue({ code: "custom", path: ["operations", i, "name"], message: `${o.name} is a reference or conversation tool's name; name the operation otherwise` });
      if (seen.has(o.name)) ctx.addIssue({ code: "custom", path: ["operations", i, "name"], message: `${o.name} is listed twice` });
      seen.add(o.name);
    });
    const described = d.state_description.operations.map((o) => o.name).join(",");
    const listed = d.operations.map((o) => o.name).join(",");
    if (described !== listed) ctx.addIssue({ code: "custom", path: ["state_description", "operations"], message: `must describe exactly the operations, in their order: ${listed}; got ${described}` });
  })
  .meta({ title: "simulated_environment" });
export type SimulatedEnvironmentDraft = z.infer<typeof SimulatedEnvironmentDraft>;

const SYSTEM =
  "You design the environment of an agent benchmark that a language-model simulator will play: no database exists, the simulator answers every business tool call from your configuration. " +
  "From the documents, write the business operations a desk agent needs (with parameters, refusals worded from the documents' rules, effects and result shapes), a small consistent initial state, " +
  "the description of that state, and the simulator's system prompt stating every rule it must enforce with its clause id.";

/** The tools of a simulated-only configuration: the model's operations, the reference tools over the documents, then send_message and finish. */
export function simulatedTools(draft: SimulatedEnvironmentDraft): EnvTool[] {
  const ops: EnvTool[] = draft.operations.map((o) => ({ ...o, kind: "operation", proposes: null, requires_approval: null }));
  const reference: EnvTool[] = REFERENCE_TOOLS.map((name) => {
    const t = STANDARD_TOOLS.get(name)!;
    const { $schema: _drop, ...parameters } = z.toJSONSchema(t.args, { io: "input" }) as Record<string, unknown>;
    return { name, description: t.description, parameters, kind: "reference", access: null, preconditions: [], effects: "", result: null, proposes: null, requires_approval: null };
  });
  const talk: EnvTool[] = CONVERSATION_TOOLS.map((t) => ({ ...t, kind: "conversation", access: null, preconditions: [], effects: "", result: null, proposes: null, requires_approval: null }));
  return [...ops, ...reference, ...talk];
}

/** One task's configuration: the domain's draft, dated and named for the task. */
export function simulatedConfig(domain: string, task: string, asOf: string, draft: SimulatedEnvironmentDraft): EnvConfig {
  return EnvConfig.parse({ domain, task, strategy: "llm", as_of: asOf, system_prompt: draft.system_prompt, tools: simulatedTools(draft), initial_state: draft.initial_state, row_rule: draft.row_rule, state_description: draft.state_description });
}

/**
 * The environment builder's llm strategy for a simulated-only domain (no world.yaml): the model
 * writes the configuration from the documents in force on the card's date. An answer that does not
 * fit (schema, a reserved or repeated tool name, a state description that does not describe exactly
 * its operations) is shown its problem and asked again within the runtime's retry budget.
 */
export async function writeSimulatedEnvironment(opts: LlmStrategyOptions, card: DomainCard, documents: readonly KnowledgeDocument[]): Promise<SimulatedEnvironmentDraft> {
  const user = [`Domain ${card.id}: ${card.title}. ${card.summary}`, `The agent is a ${card.role}; the customer is ${card.customer}. Business date ${card.as_of}.`, documentsText(documentsInForce(documents, card.as_of)), "Write the environment configuration."].join("\n\n");
  return askModel("environment-builder", opts, SimulatedEnvironmentDraft, SYSTEM, user, card.id);
}
