import type { MutationOperator } from "./types.js";
import { actionsOf, callEvent, checksOfKind, executedCalls, insertAt, na, operation, param } from "./lib.js";
import { changedState } from "../checks/index.js";

const NAME = "execute_twice";

export const executeTwice: MutationOperator = {
  name: NAME,
  description: "The agent repeats a write (a duplicate payment, a second transfer).",
  targets: ["execution_count"],
  generate(input) {
    const capped = checksOfKind(input, "execution_count").filter((c) => param(c, "max") !== undefined);
    const plans = capped.flatMap((c) => {
      const op = String(param(c, "operation"));
      const runs = executedCalls(input, op, (param(c, "args") as Record<string, unknown>) ?? {});
      const last = runs.at(-1);
      if (last === undefined) return [];
      return [{ at: last, op, target: c.id as string | null }];
    });
    if (plans.length === 0) {
      // No capped count check covers an executed write: repeat the last write, to show the gap.
      const writes = input.parsed.flatMap((p, i) => {
        const e = callEvent(input, p);
        return p.action.type === "call" && e && changedState(e) && e.kind === "tool_call" && operation(input, p.action.name)?.access === "write" ? [{ at: i, op: p.action.name, target: null }] : [];
      });
      const last = writes.at(-1);
      if (!last) return [na(NAME, "the golden trace executes no write")];
      plans.push(last);
    }
    return plans.map((p) => ({
      operator: NAME,
      target_check: p.target,
      description: `repeated ${p.op} (golden action ${p.at}) right after it ran`,
      actions: insertAt(actionsOf(input), p.at + 1, actionsOf(input)[p.at] as ReturnType<typeof actionsOf>[number]),
      mutated: [p.at + 1],
      refusalIsEquivalent: true,
    }));
  },
};
