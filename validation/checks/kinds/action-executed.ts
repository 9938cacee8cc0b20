import { z } from "zod";
import { defineCheck } from "../types.js";
import { ArgsSubset, formatArgs } from "../lib/values.js";
import { argsMatch, changedState, eventRef, executions, isCallOf, outcomeText } from "../lib/events.js";

export const actionExecuted = defineCheck({
  kind: "action_executed",
  group: "goal",
  description: "The operation was executed at least once with the given arguments; proposals, rejected, errored and explicitly faulted calls do not count.",
  catches: "an outcome claimed but not done: a call that was rejected, timed out, only proposed, or made with other arguments",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation that must have run."),
      args: ArgsSubset,
      actor: z.enum(["agent", "customer"]).optional().describe("Only calls by this actor count; any actor when omitted."),
    })
    .strict(),
  run(p, trace) {
    const wanted = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
    const done = executions(trace, p.operation, { args: p.args, actor: p.actor, excludeProposals: true })[0];
    if (done) return { passed: true, reason: `${wanted} executed at ${eventRef(done)}`, event: done.index };
    const attempts = trace.events.filter((e) => isCallOf(e, p.operation) && argsMatch(e.args, p.args));
    const notes = attempts.map((e) => {
      if (e.kind === "proposal") return `event ${e.index} only proposed it`;
      if (changedState(e)) return `event ${e.index} was made by the ${e.actor}`;
      return `event ${e.index} ${outcomeText(e)}`;
    });
    const elsewhere = executions(trace, p.operation, { actor: p.actor, excludeProposals: true })[0];
    if (elsewhere) notes.push(`${eventRef(elsewhere)} executed it with other arguments (${formatArgs(elsewhere.args)})`);
    const detail = notes.length > 0 ? `: ${notes.join("; ")}` : " (no call of it in the trace)";
    return { passed: false, reason: `${wanted} was never executed${detail}`, event: null };
  },
});
