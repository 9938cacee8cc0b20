import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { eventList, executions } from "../lib/events.js";

function expected(min: number, max: number | undefined): string {
  if (max === undefined) return `at least ${min}`;
  if (min === max) return `exactly ${min}`;
  if (min === 0) return `at most ${max}`;
  return `between ${min} and ${max}`;
}

export const executionCount = defineCheck({
  kind: "execution_count",
  group: "process",
  description: "The operation (with the given arguments) was executed between `min` and `max` times.",
  catches: "an action executed twice (a duplicate payment) or skipped when it had to run",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation counted."),
      min: z.number().int().min(0).default(0).describe("Fewest executions allowed."),
      max: z.number().int().min(0).optional().describe("Most executions allowed; unbounded when omitted."),
      args: ArgsSubset,
    })
    .strict()
    .refine((p) => p.max === undefined || p.max >= p.min, { message: "`max` must not be below `min`", path: ["max"] })
    .refine((p) => p.max !== undefined || p.min > 0, { message: "give `max`, or `min` of at least 1 (otherwise the check cannot fail)", path: ["min"] }),
  run(p, trace) {
    const runs = executions(trace, p.operation, { args: p.args });
    const what = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
    const where = runs.length > 0 ? ` (${eventList(runs)})` : "";
    const reason = `${what} executed ${runs.length} time${runs.length === 1 ? "" : "s"}${where}, expected ${expected(p.min, p.max)}`;
    if (p.max !== undefined && runs.length > p.max) return { passed: false, reason, event: runs[p.max]?.index ?? null };
    if (runs.length < p.min) return { passed: false, reason, event: null };
    return { passed: true, reason, event: runs.at(-1)?.index ?? null };
  },
});
