import { z } from "zod";
import { EnvConfig, StateDescription } from "../../schemas/env-config.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import type { CompiledWorld } from "../../world/compile-world.js";
import type { InitialState } from "../../world/build-state.js";
import { hiddenLeaks } from "../../world/env-config/hidden-values.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import type { EnvConfigWriter } from "../types.js";

export const ENV_CONFIG_SYSTEM =
  "You write the configuration of a language-model environment simulator: the system prompt it runs under and the description of the state it keeps. " +
  "Ground every behavioural rule in the documents given (cite the clause id), keep the answer protocol and every precondition message of the draft word for word, " +
  "describe every table, visible column and operation the draft lists (no others), and never name a column the draft does not list nor state a value the initial rows do not hold.";

/** The parts the model writes; the tools, the initial rows and the row rule stay the world model's. */
function answerSchema(base: EnvConfig, world: CompiledWorld, state: InitialState) {
  return z
    .object({
      system_prompt: z.string().min(1).describe("The simulator's system prompt."),
      state_description: StateDescription.describe("What each table and column means and how each operation changes it."),
    })
    .strict()
    .superRefine((a, ctx) => {
      const want = base.state_description.tables.map((t) => `${t.name}(${t.columns.map((c) => c.name).join(",")})`).join(" ");
      const got = a.state_description.tables.map((t) => `${t.name}(${t.columns.map((c) => c.name).join(",")})`).join(" ");
      if (want !== got) ctx.addIssue({ code: "custom", path: ["state_description", "tables"], message: `must describe exactly these tables and visible columns, in this order: ${want}; got ${got}` });
      const ops = base.state_description.operations.map((o) => o.name).join(",");
      if (a.state_description.operations.map((o) => o.name).join(",") !== ops) ctx.addIssue({ code: "custom", path: ["state_description", "operations"], message: `must describe exactly these operations, in this order: ${ops}` });
      for (const t of base.tools) for (const p of t.preconditions) if (!a.system_prompt.includes(p.message)) ctx.addIssue({ code: "custom", path: ["system_prompt"], message: `must quote the refusal message of ${t.name}/${p.id} word for word: "${p.message}"` });
      for (const l of hiddenLeaks({ ...base, ...a }, world, state)) ctx.addIssue({ code: "custom", path: [l.where], message: `reveals a value of the hidden column ${l.table}.${l.column}: ${JSON.stringify(l.value)}; hidden values must never appear` });
    })
    .meta({ title: "env-config" });
}

function prompt(base: EnvConfig, documents: readonly KnowledgeDocument[]): string {
  const inForce = documents.filter((d) => d.effective_from <= base.as_of && (d.effective_to === null || base.as_of <= d.effective_to));
  return [
    `Domain ${base.domain}, task business date ${base.as_of}.`,
    `Documents in force:\n${inForce.map((d) => `--- ${d.id} v${d.version} (${d.kind}): ${d.title}\n${d.text}`).join("\n\n")}`,
    `Draft system prompt (rendered from the world model):\n${base.system_prompt}`,
    `Tools (name, preconditions, effects, result shape):\n${JSON.stringify(base.tools.filter((t) => t.kind === "operation").map((t) => ({ name: t.name, preconditions: t.preconditions, effects: t.effects, result: t.result })))}`,
    `Draft state description:\n${JSON.stringify(base.state_description)}`,
    "Write the system prompt and the state description.",
  ].join("\n\n");
}

/**
 * The environment builder's llm strategy for environment configurations: the model rewrites the
 * system prompt and the state description from the documents in force, starting from the world
 * model's rendering. Its answer must describe exactly the draft's tables, columns and operations,
 * quote every precondition message and reveal no hidden value, or it is shown the problem and asked
 * again (the runtime's retry budget). Tools, initial rows and the row rule stay as rendered.
 */
export class LlmEnvConfigWriter implements EnvConfigWriter {
  constructor(readonly opts: LlmStrategyOptions) {}

  async write(base: EnvConfig, input: { world: CompiledWorld; state: InitialState; documents: readonly KnowledgeDocument[] }): Promise<EnvConfig> {
    const answer = await askModel("environment-builder", this.opts, answerSchema(base, input.world, input.state), ENV_CONFIG_SYSTEM, prompt(base, input.documents), base.task);
    return EnvConfig.parse({ ...base, strategy: "llm", system_prompt: answer.system_prompt, state_description: answer.state_description });
  }
}
