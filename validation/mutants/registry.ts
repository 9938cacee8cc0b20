import type { MutationOperator } from "./types.js";
import { dropApproval } from "./drop-approval.js";
import { executeBeforeApproval } from "./execute-before-approval.js";
import { changeTermsAfterApproval } from "./change-terms-after-approval.js";
import { reuseStaleApproval } from "./reuse-stale-approval.js";
import { reorderDependentSteps } from "./reorder-dependent-steps.js";
import { breachConstraintThenRestore } from "./breach-constraint-then-restore.js";
import { touchProtectedObject } from "./touch-protected-object.js";
import { followOutdatedRule } from "./follow-outdated-rule.js";
import { useUnobtainedFact } from "./use-unobtained-fact.js";
import { missDeadline } from "./miss-deadline.js";
import { actBeforeInformation } from "./act-before-information.js";
import { executeTwice } from "./execute-twice.js";
import { doNothing } from "./do-nothing.js";
import { takeOtherBranch } from "./take-other-branch.js";

/** Every mutation operator, in report order. The single source of truth. */
export const MUTATION_OPERATORS: readonly MutationOperator[] = [
  dropApproval,
  executeBeforeApproval,
  changeTermsAfterApproval,
  reuseStaleApproval,
  reorderDependentSteps,
  takeOtherBranch,
  breachConstraintThenRestore,
  touchProtectedObject,
  followOutdatedRule,
  useUnobtainedFact,
  missDeadline,
  actBeforeInformation,
  executeTwice,
  doNothing,
];

/** Names of the registered operators, in report order. */
export const MUTATION_OPERATOR_NAMES: readonly string[] = MUTATION_OPERATORS.map((o) => o.name);
