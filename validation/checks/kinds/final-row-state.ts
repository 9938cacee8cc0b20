import { z } from "zod";
import { RowPredicate } from "../../../pipeline/schemas/index.js";
import { defineCheck } from "../types.js";
import { rowRef, rowTransitions } from "../context.js";
import { eventRef } from "../lib/events.js";
import { KeyValue } from "../lib/values.js";
import { describePredicate, describeBreach, firstBroken } from "../lib/predicate.js";

export const finalRowState = defineCheck({
  kind: "final_row_state",
  group: "goal",
  description: "A row exists in the final state and satisfies every given predicate.",
  catches: "the requested outcome not reached: a payment left pending, a balance never credited, a record never created",
  params: z
    .object({
      table: z.string().min(1).describe("Table of the row."),
      key: KeyValue.describe("Primary-key value of the row."),
      require: z.array(RowPredicate).min(1).describe("Predicates the final row must satisfy (all of them)."),
    })
    .strict(),
  run(p, trace, ctx) {
    const ref = rowRef(p.table, p.key);
    const history = rowTransitions(trace, ctx, p.table, p.key);
    const last = history.at(-1);
    const row = last ? last.after : ctx.initialRow(p.table, p.key);
    const when = last ? `last changed at ${eventRef(last.event)}` : "never changed from the initial state";
    const event = last ? last.event.index : null;
    if (row === null) {
      const gone = last ? `deleted at ${eventRef(last.event)}` : "absent from the initial state and never inserted";
      return { passed: false, reason: `${ref} does not exist in the final state (${gone})`, event };
    }
    const broken = firstBroken(p.require, row);
    if (broken) return { passed: false, reason: `${describeBreach(ref, row, broken)} in the final state (${when})`, event };
    const wanted = p.require.map(describePredicate).join(" and ");
    return { passed: true, reason: `${ref} satisfies ${wanted} in the final state (${when})`, event };
  },
});
