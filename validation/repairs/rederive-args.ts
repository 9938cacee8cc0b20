import type { PlanStep, Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { quote } from "../../pipeline/core/errors.js";
import { Bindings } from "../probes/bindings.js";
import { agentView } from "../probes/visible-world.js";
import type { Repaired } from "./types.js";

/** Arguments of a plan step derived again by name: the customer's facts, then the keys the request names. */
function derive(ctx: DomainContext, task: Task, step: PlanStep, request: Bindings): Record<string, unknown> {
  const op = ctx.world.operations.find((o) => o.name === step.operation);
  if (!op) return step.args;
  const out: Record<string, unknown> = { ...step.args };
  for (const name of Object.keys(op.params)) {
    const fact = task.scenario.private_facts.find((f) => f.param === name);
    if (fact && op.params[name]?.source === "customer") out[name] = fact.value;
    else if (request.state.has(name)) out[name] = request.state.get(name);
  }
  return out;
}

/**
 * Re-derive the arguments of the plan step whose golden call was refused (or, without an event, of
 * every operation step): facts for customer-sourced parameters, keys the opening request names for
 * patterned ones. A value corrected in the refused step is corrected in every step that passes it
 * under the same name. Null when nothing changes.
 */
export function rederiveArgs(ctx: DomainContext, task: Task, event: number | null, golden: Trace | null): Repaired | null {
  const request = new Bindings();
  request.fromRequest(task.scenario.opening_request, agentView(ctx.world));
  const bad = event !== null ? golden?.events[event - 1] : undefined;
  const isOp = (s: PlanStep) => s.actor === "agent" && ctx.world.operations.some((o) => o.name === s.operation);
  const fixes = new Map<string, Array<{ from: string; to: unknown }>>();
  for (const s of task.reference_plan.filter(isOp)) {
    if (bad && !(s.operation === bad.name && canonicalJson(s.args) === canonicalJson(bad.args))) continue;
    const args = derive(ctx, task, s, request);
    for (const k of Object.keys(args)) {
      if (canonicalJson(args[k] ?? null) === canonicalJson(s.args[k] ?? null)) continue;
      fixes.set(k, [...(fixes.get(k) ?? []), { from: canonicalJson(s.args[k] ?? null), to: args[k] }]);
    }
    if (bad) break;
  }
  const changes: string[] = [];
  const plan = task.reference_plan.map((s) => {
    if (!isOp(s)) return s;
    const args = { ...s.args };
    for (const [k, list] of fixes) {
      const fix = list.find((f) => f.from === canonicalJson(s.args[k] ?? null));
      if (fix && Object.hasOwn(s.args, k)) args[k] = fix.to;
    }
    const diff = Object.keys(args).filter((k) => canonicalJson(args[k] ?? null) !== canonicalJson(s.args[k] ?? null));
    if (diff.length === 0) return s;
    changes.push(`step ${s.step} (${s.operation}): ${diff.map((k) => `${k} ${quote(s.args[k] ?? null)} → ${quote(args[k])}`).join(", ")}`);
    return { ...s, args };
  });
  if (changes.length === 0) return null;
  return { task: { ...task, reference_plan: plan }, action: `re-derived plan arguments: ${changes.join("; ")}` };
}
