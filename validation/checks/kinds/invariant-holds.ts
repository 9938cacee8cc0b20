import { z } from "zod";
import { RowPredicate } from "../../../pipeline/schemas/index.js";
import { defineCheck } from "../types.js";
import { rowRef, stateTransitions } from "../context.js";
import { checkConfigError } from "../lib/config-error.js";
import { eventRef, eventList } from "../lib/events.js";
import { describeBreach, describePredicate, firstBroken, holdsAll } from "../lib/predicate.js";

export const invariantHolds = defineCheck({
  kind: "invariant_holds",
  group: "process",
  description:
    "Every row of a table matching `where` satisfies `require` after every event that changed it; a temporary breach fails even when a later event restores it.",
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
    let inv = { table: p.table ?? "", where: p.where, require: p.require };
    if (p.rule !== undefined) {
      const rule = ctx.world.rules.find((r) => r.id === p.rule);
      if (!rule?.invariant) throw checkConfigError(`rule ${p.rule} is not an invariant rule of the world model`, p.rule);
      inv = rule.invariant;
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
