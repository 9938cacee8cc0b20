import type { AcceptanceCheck, Task, Trace } from "../../schemas/index.js";
import type { DomainContext } from "../types.js";
import type { WorldIndex } from "../plan/world-index.js";
import { tablesInSql, tablesOfOperation } from "../../sop/world-index.js";
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

/**
 * Information that arrives later: when the reference run waits and a scheduled event fires during
 * the wait and changes rows the next agent write reads or writes (the inspection report arrives, a
 * cleaned bed comes back), that write must come after the event. The check names the event; the
 * `act_before_information` violation trace drops the wait. Events without a formal rule are left out:
 * a check needs the clause it enforces.
 */
export function waitsForEvents(ctx: DomainContext, index: WorldIndex, task: Task, trace: Trace, stable: (args: Args) => Args): AcceptanceCheck[] {
  const out: AcceptanceCheck[] = [];
  const events = trace.events;
  for (let i = 0; i < events.length; i++) {
    const wait = events[i];
    if (wait?.kind !== "wait" || wait.status !== "executed") continue;
    const fired = [];
    for (let j = i + 1; j < events.length && events[j]?.kind === "scheduled_event"; j++) fired.push(events[j]!);
    const next = events.slice(i + 1).find((e) => e.kind === "tool_call" && e.actor === "agent" && e.status === "executed" && index.ops.get(e.name)?.access === "write");
    if (!next) continue;
    const op = index.ops.get(next.name);
    if (!op) continue;
    const touches = new Set(tablesOfOperation(op));
    for (const f of fired) {
      const world = [...task.scheduled_events, ...ctx.world.events].find((e) => e.id === f.name);
      if (!world?.rule || f.changes.length === 0 || !f.changes.some((c) => touches.has(c.table))) continue;
      const prov = ruleProvenance(ctx, world.rule);
      if (!prov) continue;
      const args = stable(keyArgs(next.args, index));
      const id = `process-${next.name}-after-${f.name}`;
      if (out.some((c) => c.id === id)) continue;
      out.push({ id, group: "process", kind: "waits_for_event", params: { event: f.name, operation: next.name, args }, description: `${next.name} runs only after ${f.name} (${world.description})`, provenance: prov });
    }
  }
  return out;
}

function keyArgs(args: Args, index: WorldIndex): Args {
  return Object.fromEntries(Object.entries(args).filter(([k]) => index.tableByKey.has(k)));
}
