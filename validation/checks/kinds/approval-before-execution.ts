import { z } from "zod";
import type { TraceEvent } from "../../../pipeline/schemas/index.js";
import { defineCheck } from "../types.js";
import { checkConfigError } from "../lib/config-error.js";
import { argsMatch, changedState, eventRef, isCallOf } from "../lib/events.js";
import { ArgsSubset, formatArgs, sameValue } from "../lib/values.js";

interface Approval {
  event: TraceEvent;
  proposal: TraceEvent;
  terms: Record<string, unknown>;
  usedBy?: TraceEvent;
  supersededBy?: TraceEvent;
}

const pick = (args: Record<string, unknown>, names: readonly string[]) => Object.fromEntries(names.map((n) => [n, args[n] ?? null]));
const sameTerms = (a: Record<string, unknown>, b: Record<string, unknown>, names: readonly string[]) => names.every((n) => sameValue(a[n], b[n]));
const proposalIdOf = (e: TraceEvent) => e.proposal_id ?? (typeof e.args.proposal_id === "string" ? e.args.proposal_id : undefined);

export const approvalBeforeExecution = defineCheck({
  kind: "approval_before_execution",
  group: "process",
  description:
    "Every execution of the operation is preceded by its own approval of a proposal with exactly the executed terms, not superseded by a newer proposal for the same subject in between.",
  catches: "a dropped approval, an approval of other terms (5,000 approved, 5,500 executed), an approval used twice, or one made stale by renegotiated terms",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation that needs approval (usually one with `requires_approval`)."),
      kind: z.string().min(1).optional().describe("Proposal kind; defaults to the operation's `requires_approval.kind`."),
      terms: z.array(z.string().min(1)).min(1).optional().describe("Argument names forming the terms; defaults to `requires_approval.terms`."),
      subject: z
        .array(z.string().min(1))
        .min(1)
        .optional()
        .describe("Terms naming the object approved (default: the first term); a newer proposal for the same subject with other terms voids an earlier approval."),
      required: z
        .boolean()
        .default(false)
        .describe("When true, the operation must have been executed (with its approval) at least once, with `args` when given: a trace that never ran it so fails; when false, it passes."),
      args: ArgsSubset.describe("When given with `required`, the approved execution that is required must carry these arguments (one payment of several, each with its own approval); every execution still needs its own approval."),
    })
    .strict(),
  run(p, trace, ctx) {
    const op = ctx.world.operations.find((o) => o.name === p.operation);
    const kind = p.kind ?? op?.requires_approval?.kind;
    const terms = p.terms ?? op?.requires_approval?.terms;
    if (!kind || !terms) throw checkConfigError(`operation ${p.operation} has no requires_approval binding in the world model; give \`kind\` and \`terms\``);
    const subject = p.subject ?? terms.slice(0, 1);
    const proposers = new Set(ctx.world.operations.filter((o) => o.proposes?.kind === kind).map((o) => o.name));
    const approvers = new Set(ctx.world.operations.filter((o) => o.approves === kind).map((o) => o.name));
    const proposals = new Map<string, TraceEvent>();
    const approvals: Approval[] = [];
    let last: TraceEvent | undefined;
    for (const e of trace.events) {
      if (!changedState(e)) continue;
      const pid = proposalIdOf(e);
      // Proposals and approvals are recognised by the operation that made them, whatever kind label the runtime gave the event.
      if (proposers.has(e.name) && pid) {
        const offered = pick(e.args, terms);
        for (const a of approvals) {
          if (!a.usedBy && !a.supersededBy && sameTerms(a.terms, offered, subject) && !sameTerms(a.terms, offered, terms)) a.supersededBy = e;
        }
        proposals.set(pid, e);
      } else if (approvers.has(e.name) && pid && proposals.has(pid)) {
        const proposal = proposals.get(pid) as TraceEvent;
        approvals.push({ event: e, proposal, terms: pick(proposal.args, terms) });
      } else if (isCallOf(e, p.operation) && e.kind !== "proposal") {
        const executed = pick(e.args, terms);
        const match = approvals.find((a) => !a.usedBy && !a.supersededBy && sameTerms(a.terms, executed, terms));
        if (match) {
          match.usedBy = e;
          if (argsMatch(e.args, p.args)) last = e;
          continue;
        }
        return { passed: false, reason: `${eventRef(e)} executed with ${formatArgs(executed)}${whyUnapproved(approvals, proposals, executed, terms, kind)}`, event: e.index };
      }
    }
    if (!last) {
      // Where the world refuses unapproved calls, a dropped approval shows only as an execution that never happened.
      const what = Object.keys(p.args).length > 0 ? `${p.operation} with ${formatArgs(p.args)}` : p.operation;
      if (p.required) return { passed: false, reason: `${what} was never executed, but an approved execution is required${attemptsText(trace, p.operation, p.args)}`, event: null };
      return { passed: true, reason: `${p.operation} was never executed; no approval was needed`, event: null };
    }
    const pairs = approvals.filter((a) => a.usedBy).map((a) => `event ${a.usedBy?.index} ← approval at event ${a.event.index}`);
    return { passed: true, reason: `every execution of ${p.operation} had its own approval of the exact terms (${pairs.join(", ")})`, event: last.index };
  },
});

/** `; attempts at events 5, 9 did not run` when the operation was tried. */
function attemptsText(trace: { events: readonly TraceEvent[] }, operation: string, args: Record<string, unknown>): string {
  const tried = trace.events.filter((e) => isCallOf(e, operation) && e.kind !== "proposal" && argsMatch(e.args, args));
  return tried.length > 0 ? `; attempts at ${tried.map((e) => `event ${e.index} (${e.status})`).join(", ")} did not run` : "";
}

/** The most telling reason the executed terms were not covered. */
function whyUnapproved(approvals: Approval[], proposals: Map<string, TraceEvent>, executed: Record<string, unknown>, terms: string[], kind: string): string {
  const same = approvals.filter((a) => sameTerms(a.terms, executed, terms));
  const superseded = same.find((a) => a.supersededBy && !a.usedBy);
  if (superseded) {
    const by = superseded.supersededBy as TraceEvent;
    return `, but the approval at event ${superseded.event.index} for these terms was superseded by the new proposal at event ${by.index} (${formatArgs(pick(by.args, terms))})`;
  }
  const used = same.find((a) => a.usedBy);
  if (used) return `, but the approval at event ${used.event.index} for these terms was already used by event ${used.usedBy?.index}`;
  const other = approvals.filter((a) => !a.usedBy).at(-1);
  if (other) return `, but the approval at event ${other.event.index} covers ${formatArgs(other.terms)}`;
  const unapproved = [...proposals.values()].filter((e) => sameTerms(pick(e.args, terms), executed, terms)).at(-1);
  if (unapproved) return `, but the proposal at event ${unapproved.index} was never approved before it`;
  return ` without any approval of a ${kind} proposal`;
}
