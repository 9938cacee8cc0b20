import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { runActions } from "../episode-actions.js";
import { judge } from "../judge.js";
import { alternativeExecutions } from "../alternatives.js";
import { failed, passed, type GateOutcome } from "./types.js";

/** Gate 2 result: the gate, and how many alternatives were generated and passed. */
export interface AlternativesGate extends GateOutcome {
  generated: number;
  passedCount: number;
}

/**
 * Gate 2: every alternative execution the SOP permits (independent steps in the other order) passes
 * every check. A check a valid alternative fails is over-specified: it is named in the diagnosis.
 * Alternative routes through decisions are not generated (a branch's reachability of the goal
 * cannot be told from the SOP alone); the detail says so.
 */
export function alternativesGate(ctx: DomainContext, task: Task, golden: Trace): AlternativesGate {
  const alts = alternativeExecutions(ctx, task, golden);
  let ok = 0;
  for (const alt of alts) {
    const trace = runActions(ctx, task, alt.actions, { role: "alternative", label: alt.label });
    const j = judge(ctx, task, trace);
    const bad = j.results.find((r) => !r.passed);
    if (!bad) {
      ok++;
      continue;
    }
    const detail = `valid alternative "${alt.label}" fails check ${bad.check}: ${bad.reason} (${ok} of ${alts.length} passed before it)`;
    return { ...failed("alternatives", detail, { check: bad.check, event: bad.event, code: "alternative_failed" }), generated: alts.length, passedCount: ok };
  }
  const note = alts.length === 0 ? "no reordering permitted by the SOP" : `${ok} of ${alts.length} reorderings permitted by the SOP pass every check`;
  return { ...passed("alternatives", `${note}; alternative routes through decisions not generated`), generated: alts.length, passedCount: ok };
}
