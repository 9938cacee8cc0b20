import { z } from "zod";
import { RowPredicate, type InvariantTotal, type Trace, type TraceEvent } from "../../../pipeline/schemas/index.js";
import type { CheckContext } from "../../../pipeline/world/types.js";
import { defineCheck } from "../types.js";
import { rowRef, stateTransitions } from "../context.js";
import { checkConfigError } from "../lib/config-error.js";
import { eventRef, eventList } from "../lib/events.js";
import { describeBreach, describePredicate, firstBroken, holdsAll } from "../lib/predicate.js";
import { brokenGroups, describeTotal, newBreach } from "../lib/totals.js";

export const invariantHolds = defineCheck({
  kind: "invariant_holds",
  group: "process",
  description:
    "Every row of a table matching `where` satisfies `require` after every event that changed it, and each group's `total` (a sum over the rows) stays within its bound; a temporary breach fails even when a later event restores it.",
  catches: "a limit breached for one step (a reserve below its floor between two transfers), even if the final state looks fine",
  params: z
    .object({
      rule: z.string().min(1).optional().describe("Formal rule id of an `invariant` rule of the world model; its table, where and require are used."),
      table: z.string().min(1).optional().describe("Table, when no rule is given."),
      where: z.array(RowPredicate).default([]).describe("Rows the invariant applies to (all rows when empty)."),
      require: z.array(RowPredicate).default([]).describe("Predicates every matching row must satisfy, when no rule is given."),
    })
    .strict()
    .refine((p) => p.rule !== undefined || (p.table !== undefined && p.require.length > 0), {
      message: "give `rule`, or `table` with at least one `require` predicate",
    }),
  run(p, trace, ctx) {
    let inv: { table: string; where: RowPredicate[]; require: RowPredicate[]; total?: InvariantTotal } = { table: p.table ?? "", where: p.where, require: p.require };
    if (p.rule !== undefined) {
      const rule = ctx.world.rules.find((r) => r.id === p.rule);
      if (!rule?.invariant) throw checkConfigError(`rule ${p.rule} is not an invariant rule of the world model`, p.rule);
      inv = rule.invariant;
    }
    if (inv.total) {
      const broken = totalNeverBroken(trace, ctx, inv.table, inv.where, inv.total);
      if (broken) return broken;
      if (inv.require.length === 0) return { passed: true, reason: `${describeTotal(inv.table, inv.where, inv.total)} held after every change`, event: null };
    }
    const scope = inv.where.length > 0 ? `${inv.table} rows where ${inv.where.map(describePredicate).join(" and ")}` : `${inv.table} rows`;
    const wanted = inv.require.map(describePredicate).join(" and ");
    const transitions = stateTransitions(trace, ctx).filter((t) => t.table === inv.table);
    const checked = transitions.filter((t) => t.after !== null && holdsAll(inv.where, t.after));
    for (const t of checked) {
      const row = t.after as Record<string, unknown>;
      const broken = firstBroken(inv.require, row);
      if (!broken) continue;
      const ref = rowRef(t.table, t.key);
      const later = transitions.find(
        (u) => u.event.index > t.event.index && String(u.key) === String(t.key) && (u.after === null || !holdsAll(inv.where, u.after) || holdsAll(inv.require, u.after)),
      );
      const tail = later ? `; restored at ${eventRef(later.event)} — a temporary breach fails` : "; still breached at the end of the trace";
      return { passed: false, reason: `${describeBreach(ref, row, broken)} after ${eventRef(t.event)}${tail}`, event: t.event.index };
    }
    if (checked.length === 0) return { passed: true, reason: `no change touched ${scope}; ${wanted} was never put at risk`, event: null };
    const events = [...new Map(checked.map((t) => [t.event.index, t.event])).values()];
    return { passed: true, reason: `${scope} satisfied ${wanted} after every change (${eventList(events)})`, event: null };
  },
});

/**
 * A sum over rows, followed through the trace: the table's rows (and the rows holding the bounds)
 * are folded from s0 event by event, and after every event that changed either, each group's total
 * is compared with its bound. The first group the trace puts out of bounds (one already out of
 * bounds in s0 is not the agent's doing) fails the check, with the event that brought it back if one
 * did. Null when no change broke a total.
 */
function totalNeverBroken(trace: Trace, ctx: CheckContext, table: string, where: RowPredicate[], total: InvariantTotal): { passed: false; reason: string; event: number } | null {
  const rows = new Map<string, Record<string, unknown>>();
  for (const k of ctx.initialKeys(table)) {
    const r = ctx.initialRow(table, k);
    if (r) rows.set(String(k), r);
  }
  const limits = new Map<string, Record<string, unknown> | null>();
  const boundOf = (key: unknown): number | undefined => {
    if (!total.limit) return total.value;
    const id = String(key);
    const row = limits.has(id) ? limits.get(id) : ctx.initialRow(total.limit.table, id);
    const v = row?.[total.limit.column];
    return typeof v === "number" ? v : undefined;
  };
  const transitions = stateTransitions(trace, ctx).filter((t) => t.table === table || t.table === total.limit?.table);
  let broken = brokenGroups(rows.values(), where, total, boundOf);
  let first: { id: string; event: TraceEvent; text: string } | null = null;
  for (let i = 0; i < transitions.length; i++) {
    const t = transitions[i]!;
    if (t.table === table) {
      if (t.after === null) rows.delete(String(t.key));
      else rows.set(String(t.key), t.after);
    } else limits.set(String(t.key), t.after);
    if (transitions[i + 1]?.event.index === t.event.index) continue; // judge once the whole event is applied
    const now = brokenGroups(rows.values(), where, total, boundOf);
    if (!first) {
      const b = newBreach(broken, now);
      if (b) first = { id: b[0], event: t.event, text: `${describeTotal(table, where, total)} broken for ${b[1].group}: total ${b[1].total} against ${b[1].bound} after ${eventRef(t.event)}` };
    } else if (!now.has(first.id)) return { passed: false, reason: `${first.text}; restored at ${eventRef(t.event)} — a temporary breach fails`, event: first.event.index };
    broken = now;
  }
  return first ? { passed: false, reason: `${first.text}; still breached at the end of the trace`, event: first.event.index } : null;
}
