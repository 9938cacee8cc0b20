import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset } from "../lib/values.js";
import { eventRef, executions } from "../lib/events.js";

export const executedInOrder = defineCheck({
  kind: "executed_in_order",
  group: "process",
  description: "The first execution of `after` is preceded by an execution of `before`; passes when `after` never ran.",
  catches: "dependent steps swapped (releasing before verifying, paying before the quote was accepted)",
  params: z
    .object({
      before: z.string().min(1).describe("Operation that must run first."),
      after: z.string().min(1).describe("Operation that may only run once `before` has."),
      before_args: ArgsSubset,
      after_args: ArgsSubset,
    })
    .strict(),
  run(p, trace) {
    const later = executions(trace, p.after, { args: p.after_args })[0];
    if (!later) return { passed: true, reason: `${p.after} was never executed; there is no order to check`, event: null };
    const befores = executions(trace, p.before, { args: p.before_args });
    const earlier = befores.find((e) => e.index < later.index);
    if (earlier) return { passed: true, reason: `${eventRef(earlier)} executed before ${eventRef(later)}`, event: later.index };
    const late = befores[0];
    const tail = late ? ` (it first ran at ${eventRef(late)})` : ` (it never ran)`;
    return { passed: false, reason: `${eventRef(later)} executed before any execution of ${p.before}${tail}`, event: later.index };
  },
});
