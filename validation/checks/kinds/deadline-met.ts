import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { eventRef, executions } from "../lib/events.js";

export const deadlineMet = defineCheck({
  kind: "deadline_met",
  group: "process",
  description:
    "The first execution of the operation (with the given arguments) happens at or before a logical minute (`by_minute`), or within `after.within` minutes of the latest execution of `after.operation` before it (a quote that expires, a reassessment that falls due).",
  catches: "an action taken too late on the logical clock (after a cut-off, after a quote expired, after a response deadline)",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation that must run in time."),
      by_minute: z.number().int().min(0).optional().describe("Latest logical minute (inclusive), for a fixed deadline."),
      after: z
        .object({
          operation: z.string().min(1).describe("Operation that starts the clock (e.g. the quote request)."),
          args: ArgsSubset,
          within: z.number().int().min(0).describe("Minutes after it within which `operation` must run (inclusive)."),
        })
        .strict()
        .optional()
        .describe("For a deadline relative to an earlier call: the call that starts the clock and the minutes allowed."),
      args: ArgsSubset,
      required: z.boolean().default(true).describe("When true, never executing the operation misses the deadline; when false, it passes."),
    })
    .strict()
    .refine((p) => (p.by_minute === undefined) !== (p.after === undefined), { message: "give exactly one of `by_minute` or `after`" }),
  run(p, trace) {
    const first = executions(trace, p.operation, { args: p.args })[0];
    const what = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
    const deadlineText = p.after ? `${p.after.within} minutes after ${p.after.operation}` : `minute ${p.by_minute}`;
    if (!first) {
      if (p.required) return { passed: false, reason: `${what} was never executed; the deadline (${deadlineText}) was missed`, event: null };
      return { passed: true, reason: `${what} was never executed; the deadline (${deadlineText}) does not apply`, event: null };
    }
    let by = p.by_minute ?? 0;
    let from = "";
    if (p.after) {
      const after = p.after;
      const start = executions(trace, after.operation, { args: after.args, excludeProposals: false }).filter((e) => e.index < first.index).at(-1);
      if (!start) return { passed: false, reason: `${eventRef(first)} executed at minute ${first.time} without an earlier ${after.operation} to start its ${after.within}-minute window`, event: first.index };
      by = start.time + after.within;
      from = ` (${after.within} minutes after ${eventRef(start)} at minute ${start.time})`;
    }
    if (first.time > by) {
      return { passed: false, reason: `${eventRef(first)} executed at minute ${first.time}, after the deadline ${by}${from}`, event: first.index };
    }
    return { passed: true, reason: `${eventRef(first)} executed at minute ${first.time}, within the deadline ${by}${from}`, event: first.index };
  },
});
