import { z } from "zod";
import { defineCheck } from "../types.js";
import { rowRef, stateTransitions } from "../context.js";
import { altered, describeRowChange } from "../lib/row-diff.js";
import { eventRef } from "../lib/events.js";
import { KeyValue, sameKey } from "../lib/values.js";

export const protectedRowsUnchanged = defineCheck({
  kind: "protected_rows_unchanged",
  group: "protection",
  description: "No event ever changes, inserts or deletes the listed rows, even temporarily.",
  catches: "a protected object touched: another account debited, a frozen record edited, a closed case reopened",
  params: z
    .object({
      table: z.string().min(1).describe("Table of the protected rows."),
      keys: z.array(KeyValue).min(1).describe("Primary-key values of the protected rows."),
    })
    .strict(),
  run(p, trace, ctx) {
    const hit = stateTransitions(trace, ctx).find((t) => t.table === p.table && p.keys.some((k) => sameKey(k, t.key)) && altered(t));
    const refs = p.keys.map((k) => rowRef(p.table, k)).join(", ");
    if (hit) return { passed: false, reason: `${eventRef(hit.event)} changed protected row ${rowRef(hit.table, hit.key)}: ${describeRowChange(hit)}`, event: hit.event.index };
    return { passed: true, reason: `protected row${p.keys.length === 1 ? "" : "s"} ${refs} never changed`, event: null };
  },
});
