import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { eventRef, executions } from "../lib/events.js";

export const deadlineMet = defineCheck({
  kind: "deadline_met",
  group: "process",
  description: "The first execution of the operation (with the given arguments) happens at or before a logical minute.",
  catches: "an action taken too late on the logical clock (after a cut-off, after a quote expired, after a response deadline)",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation that must run in time."),
      by_minute: z.number().int().min(0).describe("Latest logical minute (inclusive)."),
      args: ArgsSubset,
      required: z.boolean().default(true).describe("When true, never executing the operation misses the deadline; when false, it passes."),
    })
    .strict(),
  run(p, trace) {
    const first = executions(trace, p.operation, { args: p.args })[0];
    const what = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
    if (!first) {
      if (p.required) return { passed: false, reason: `${what} was never executed; the deadline ${p.by_minute} was missed`, event: null };
      return { passed: true, reason: `${what} was never executed; the deadline ${p.by_minute} does not apply`, event: null };
    }
    if (first.time > p.by_minute) {
      return { passed: false, reason: `${eventRef(first)} executed at minute ${first.time}, after the deadline ${p.by_minute}`, event: first.index };
    }
    return { passed: true, reason: `${eventRef(first)} executed at minute ${first.time}, within the deadline ${p.by_minute}`, event: first.index };
  },
});
