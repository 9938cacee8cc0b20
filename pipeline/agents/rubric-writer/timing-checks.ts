import type { AcceptanceCheck, Trace } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";
import type { WorldIndex } from "../plan/world-index.js";
import { tablesInSql } from "../../sop/world-index.js";
import { executions } from "../../../validation/checks/index.js";
import { ruleProvenance } from "./provenance.js";

type Args = Record<string, unknown>;

/**
 * Deadlines relative to an earlier call, from the world's scheduled events: an event that fires a
 * delay after an operation and implements a `deadline` rule (a quote that expires 30 minutes after
 * it was given) bounds the first later agent write on a table the event changes (the booking of the
 * quote): it must run within `delay − 1` minutes of the latest call that started the clock. Only
 * windows the reference run keeps are written, so the golden trace passes them by construction and
 * the `miss_deadline` violation trace shows the check failing.
 */
export function relativeDeadlines(ctx: DomainContext, index: WorldIndex, trace: Trace, stable: (args: Args) => Args): AcceptanceCheck[] {
  const out: AcceptanceCheck[] = [];
  const calls = trace.events.filter((e) => e.kind === "tool_call" && e.actor === "agent" && e.status === "executed");
  for (const ev of ctx.world.events) {
    const trigger = ev.after?.operation;
    const rule = ev.rule ? ctx.world.rules.find((r) => r.id === ev.rule) : undefined;
    if (!trigger || !ev.after || ev.after.delay < 1 || rule?.kind !== "deadline") continue;
    const tables = new Set(ev.effects.flatMap((e) => tablesInSql(e.sql)));
    const start = calls.find((e) => e.name === trigger);
    if (!start) continue;
    const bound = calls.find((e) => e.index > start.index && e.name !== trigger && index.ops.get(e.name)?.access === "write" && !index.ops.get(e.name)?.proposes && index.writtenTables(e.name).some((t) => tables.has(t)));
    if (!bound) continue;
    const within = ev.after.delay - 1;
    const args = stable(keyArgs(bound.args, index));
    const startArgs = stable(keyArgs(start.args, index));
    const first = executions(trace, bound.name, { args })[0];
    const opened = executions(trace, trigger, { args: startArgs }).filter((e) => first && e.index < first.index).at(-1);
    if (!first || !opened || first.time > opened.time + within) continue;
    const prov = ruleProvenance(ctx, rule.id);
    if (!prov) continue;
    out.push({
      id: `process-${bound.name}-within-${within}-after-${trigger}`,
      group: "process",
      kind: "deadline_met",
      params: { operation: bound.name, args, after: { operation: trigger, args: startArgs, within } },
      description: `${bound.name} runs within ${within} minutes of the ${trigger} it follows (${ev.description})`,
      provenance: prov,
    });
  }
  return out;
}

function keyArgs(args: Args, index: WorldIndex): Args {
  return Object.fromEntries(Object.entries(args).filter(([k]) => index.tableByKey.has(k)));
}
