export type { CheckKind, CheckVerdict } from "./types.js";
export { defineCheck } from "./types.js";
export { CHECK_KINDS, CHECK_KIND_NAMES, getCheckKind } from "./registry.js";
export { runCheck, runChecks, strictSuccess, type StrictSuccess } from "./run-checks.js";
export { buildCheckContext, finalRow, rowAt, rowRef, rowTransitions, stateTransitions, type InitialRows, type Row, type RowTransition } from "./context.js";
export { changedState, executions, argsMatch } from "./lib/events.js";
export { holds, holdsAll, describePredicate } from "./lib/predicate.js";
export { brokenGroups, describeTotal, groupOf, newBreach, totals, type TotalBreach } from "./lib/totals.js";
