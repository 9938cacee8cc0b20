import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { eventList, executions } from "../lib/events.js";

export const branchFollowed = defineCheck({
  kind: "branch_followed",
  group: "process",
  description: "A decision's branch was followed as the document requires: when its condition held on the task's state, the operations its outcome names ran (proposals count); when it did not hold, none of them ran.",
  catches: "a skipped branch the procedure requires (no approval asked above the threshold, no notification below the critical level), or a branch taken whose condition did not hold",
  params: z
    .object({
      workflow: z.string().min(1).describe("Workflow id."),
      decision: z.string().min(1).describe("Decision id inside the workflow."),
      when: z.string().min(1).describe("The branch's condition as written."),
      held: z.boolean().describe("Whether the condition held on the task's state and the customer's facts."),
      operations: z.array(z.string().min(1)).min(1).describe("Operations the branch's outcome names."),
      args: ArgsSubset,
    })
    .strict(),
  run(p, trace) {
    const on = Object.keys(p.args).length > 0 ? ` with ${formatArgs(p.args)}` : "";
    const ran = p.operations.map((op) => ({ op, events: executions(trace, op, { args: p.args }) }));
    if (p.held) {
      const missing = ran.filter((r) => r.events.length === 0).map((r) => r.op);
      if (missing.length > 0) return { passed: false, reason: `the condition "${p.when}" held, but ${missing.join(", ")} never ran${on}`, event: null };
      const first = ran[0]?.events[0];
      return { passed: true, reason: `the condition "${p.when}" held and ${ran.map((r) => `${r.op} ran at ${eventList(r.events)}`).join(", ")}`, event: first?.index ?? null };
    }
    const done = ran.find((r) => r.events.length > 0);
    if (done) return { passed: false, reason: `the condition "${p.when}" did not hold, but ${done.op} ran${on} at ${eventList(done.events)}`, event: done.events[0]?.index ?? null };
    return { passed: true, reason: `the condition "${p.when}" did not hold and none of ${p.operations.join(", ")} ran${on}`, event: null };
  },
});
