import { z } from "zod";
import { quote } from "../../../pipeline/core/errors.js";
import { defineCheck } from "../types.js";
import { rowRef, rowTransitions } from "../context.js";
import { eventRef } from "../lib/events.js";
import { KeyValue, Scalar, formatList, sameValue } from "../lib/values.js";

export const terminalValueIn = defineCheck({
  kind: "terminal_value_in",
  group: "goal",
  description: "A column of a row ends the episode in one of the permitted terminal values.",
  catches: "an episode that stops in a state the documents do not permit as an end (e.g. `approved` but neither `released` nor `cancelled`)",
  params: z
    .object({
      table: z.string().min(1).describe("Table of the row."),
      key: KeyValue.describe("Primary-key value of the row."),
      column: z.string().min(1).describe("Column whose final value is judged."),
      allowed: z.array(Scalar).min(1).describe("Permitted terminal values."),
    })
    .strict(),
  run(p, trace, ctx) {
    const ref = `${rowRef(p.table, p.key)}.${p.column}`;
    const last = rowTransitions(trace, ctx, p.table, p.key).at(-1);
    const row = last ? last.after : ctx.initialRow(p.table, p.key);
    const when = last ? `last changed at ${eventRef(last.event)}` : "never changed from the initial state";
    const event = last ? last.event.index : null;
    if (row === null) return { passed: false, reason: `${rowRef(p.table, p.key)} does not exist in the final state (${when})`, event };
    const value = row[p.column];
    if (p.allowed.some((v) => sameValue(value, v))) {
      return { passed: true, reason: `${ref} ends as ${quote(value ?? null)}, a permitted terminal value (${when})`, event };
    }
    return { passed: false, reason: `${ref} ends as ${quote(value ?? null)}, not one of ${formatList(p.allowed)} (${when})`, event };
  },
});
