import type { MutationOperator } from "./types.js";
import { actionsOf, checksOfKind, executedCalls, na, param, without } from "./lib.js";

const NAME = "act_before_information";

export const actBeforeInformation: MutationOperator = {
  name: NAME,
  description: "The agent does not wait for the scheduled event (a report, a result, a period that must elapse) and acts before it fired.",
  targets: ["waits_for_event"],
  generate(input) {
    const checks = checksOfKind(input, "waits_for_event");
    if (checks.length === 0) return [na(NAME, "the task has no waits_for_event check")];
    return checks.map((c) => {
      const op = String(param(c, "operation"));
      const at = executedCalls(input, op, (param(c, "args") as Record<string, unknown>) ?? {})[0];
      if (at === undefined) return na(NAME, `check ${c.id}: the golden trace never executes ${op}`);
      const actions = actionsOf(input);
      const waits = new Set(actions.flatMap((a, i) => (i < at && a.type === "wait" ? [i] : [])));
      if (waits.size === 0) return na(NAME, `check ${c.id}: the golden trace does not wait before ${op}`);
      const kept = without(actions, waits);
      const moved = at - [...waits].filter((i) => i < at).length;
      // When the world itself refuses the early call, the violation never happened (equivalent).
      return { operator: NAME, target_check: c.id, description: `dropped the ${waits.size} wait(s) before ${op}, so it runs before ${String(param(c, "event"))} fired`, actions: kept, mutated: [moved], refusalIsEquivalent: true };
    });
  },
};
