import type { CheckKind } from "./types.js";
import { finalRowState } from "./kinds/final-row-state.js";
import { terminalValueIn } from "./kinds/terminal-value-in.js";
import { actionExecuted } from "./kinds/action-executed.js";
import { approvalBeforeExecution } from "./kinds/approval-before-execution.js";
import { invariantHolds } from "./kinds/invariant-holds.js";
import { deadlineMet } from "./kinds/deadline-met.js";
import { waitsForEvent } from "./kinds/waits-for-event.js";
import { executedInOrder } from "./kinds/executed-in-order.js";
import { branchFollowed } from "./kinds/branch-followed.js";
import { factElicitedBeforeUse } from "./kinds/fact-elicited-before-use.js";
import { executionCount } from "./kinds/execution-count.js";
import { ruleVersionFollowed } from "./kinds/rule-version-followed.js";
import { protectedRowsUnchanged } from "./kinds/protected-rows-unchanged.js";
import { prohibitedOperationsAbsent } from "./kinds/prohibited-operations-absent.js";
import { otherCustomersUntouched } from "./kinds/other-customers-untouched.js";

/** Every check kind, in documentation order (goal, process, protection). The single source of truth. */
export const CHECK_KINDS: readonly CheckKind[] = [
  finalRowState,
  terminalValueIn,
  actionExecuted,
  approvalBeforeExecution,
  invariantHolds,
  deadlineMet,
  waitsForEvent,
  executedInOrder,
  branchFollowed,
  factElicitedBeforeUse,
  executionCount,
  ruleVersionFollowed,
  protectedRowsUnchanged,
  prohibitedOperationsAbsent,
  otherCustomersUntouched,
];

const BY_NAME: ReadonlyMap<string, CheckKind> = new Map(CHECK_KINDS.map((k) => [k.kind, k]));

/** Names of all registered kinds, sorted. */
export const CHECK_KIND_NAMES: readonly string[] = [...BY_NAME.keys()].sort();

/** The registered kind named `name`, or undefined. */
export function getCheckKind(name: string): CheckKind | undefined {
  return BY_NAME.get(name);
}
