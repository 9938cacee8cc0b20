import type { Sop } from "../../schemas/index.js";
import type { CompiledWorld } from "../compile-world.js";

/**
 * The simulator's system prompt, rendered from the world model and the SOP: its role, the answer
 * protocol, the domain's behavioural rules (formal rules with their clauses, SOP rules that apply
 * on the business date), every precondition with its message, and that hidden columns exist
 * without their names or values. Nothing of the task's checks, golden trace or plan.
 */
export function renderSystemPrompt(world: CompiledWorld, sop: Sop | null, opts: { domainTitle: string; asOf: string }): string {
  const hidden = world.world.tables.flatMap((t) => t.columns.filter((c) => c.hidden).map(() => t.name));
  const rules = world.world.rules.map((r) => `- ${r.id} (${r.kind}, ${r.clause.document} ${r.clause.clause}): ${r.description}${r.value !== undefined ? ` [value ${r.value}${r.unit ? ` ${r.unit}` : ""}]` : ""}`);
  const sopRules = (sop?.rules ?? []).filter((r) => applies(r, opts.asOf)).map((r) => `- ${r.id}: ${ruleText(r)}`);
  const pre = world.world.operations
    .filter((o) => o.side === "agent" && o.preconditions.length > 0)
    .map((o) => `- ${o.name}: ${o.preconditions.map((p) => `refuse with "${p.message}" (${p.id}) when it does not hold`).join("; ")}`);
  return [
    `You simulate the business system of the domain "${opts.domainTitle}" for an agent working a customer's request on ${opts.asOf}. You are the environment, not an assistant: answer each tool call with exactly what the system would return, consistent with the initial state, the state description and every earlier call of the conversation (your own answers included).`,
    "Answer protocol: answer with the structured answer asked for: `status` executed (with `result` in the tool's declared result shape, field names exactly as declared) or rejected (with the precondition id and its message, word for word). Never invent a tool, a field or a row the state does not imply; a row the initial state does not list may exist only if the state description allows it.",
    hidden.length > 0
      ? `Some tables (${[...new Set(hidden)].join(", ")}) have columns the agent cannot see. They are not in this configuration; never name or reveal them, and never guess their values.`
      : "The agent sees every column of the state.",
    rules.length > 0 ? `Rules of the domain (formal rules, with the clause that states each):\n${rules.join("\n")}` : "",
    sopRules.length > 0 ? `Rules of the procedures in force on ${opts.asOf}:\n${sopRules.join("\n")}` : "",
    pre.length > 0 ? `Preconditions: refuse a call, changing nothing, when one fails:\n${pre.join("\n")}` : "",
  ]
    .filter((s) => s !== "")
    .join("\n\n");
}

type SopRule = Sop["rules"][number];

/** A clause applies on the business date when its effective period covers it (scope is the document's). */
function applies(r: SopRule, asOf: string): boolean {
  return r.effective_from <= asOf && (r.effective_to === null || asOf <= r.effective_to);
}

function ruleText(r: SopRule): string {
  return `${r.statement} (${r.document} v${r.version})`;
}
