import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { eventRef, executions } from "../lib/events.js";

export const waitsForEvent = defineCheck({
  kind: "waits_for_event",
  group: "process",
  description: "The first execution of the operation (with the given arguments) comes after the scheduled event fired (information that arrives later, a period that must elapse); passes when the operation never ran.",
  catches: "acting before the information arrived (closing an examination before its report, allocating before the bed was cleaned)",
  params: z
    .object({
      event: z.string().min(1).describe("Id of the scheduled event (world or task) that must have fired first."),
      operation: z.string().min(1).describe("Operation that may only run after it."),
      args: ArgsSubset,
    })
    .strict(),
  run(p, trace) {
    const what = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
    const first = executions(trace, p.operation, { args: p.args })[0];
    if (!first) return { passed: true, reason: `${what} was never executed; nothing ran before ${p.event}`, event: null };
    const fired = trace.events.find((e) => e.kind === "scheduled_event" && e.name === p.event && e.status === "executed" && e.index < first.index);
    if (fired) return { passed: true, reason: `${p.event} fired at event ${fired.index} (minute ${fired.time}), before ${eventRef(first)} at minute ${first.time}`, event: first.index };
    const later = trace.events.find((e) => e.kind === "scheduled_event" && e.name === p.event && e.index > first.index);
    return { passed: false, reason: `${eventRef(first)} executed at minute ${first.time}, before ${p.event} had fired${later ? ` (it fired at event ${later.index}, minute ${later.time})` : " (it never fired)"}`, event: first.index };
  },
});
