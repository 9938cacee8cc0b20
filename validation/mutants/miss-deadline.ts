import type { MutationOperator } from "./types.js";
import { actionsOf, callEvent, checksOfKind, executedCalls, insertAt, na, param } from "./lib.js";

const NAME = "miss_deadline";

export const missDeadline: MutationOperator = {
  name: NAME,
  description: "The agent waits past the deadline (a fixed minute, or the window after the call that starts the clock) before the deadline-bound call.",
  targets: ["deadline_met"],
  generate(input) {
    const checks = checksOfKind(input, "deadline_met");
    if (checks.length === 0) return [na(NAME, "the task has no deadline_met check")];
    return checks.map((c) => {
      const op = String(param(c, "operation"));
      const at = executedCalls(input, op, (param(c, "args") as Record<string, unknown>) ?? {})[0];
      if (at === undefined) return na(NAME, `check ${c.id}: the golden trace never executes ${op}`);
      const time = callEvent(input, input.parsed[at] as (typeof input.parsed)[number])?.time ?? 0;
      const after = param(c, "after") as { operation: string; args?: Record<string, unknown>; within: number } | undefined;
      let by = Number(param(c, "by_minute"));
      if (after) {
        const starts = executedCalls(input, after.operation, after.args ?? {}).filter((i) => i < at);
        const start = starts.at(-1);
        if (start === undefined) return na(NAME, `check ${c.id}: the golden trace runs no ${after.operation} before ${op}`);
        by = (callEvent(input, input.parsed[start] as (typeof input.parsed)[number])?.time ?? 0) + after.within;
      }
      const minutes = by - time + 1;
      if (minutes <= 0) return na(NAME, `check ${c.id}: the golden trace already runs ${op} at minute ${time}, after ${by}`);
      return {
        operator: NAME,
        target_check: c.id,
        description: `waited ${minutes} minutes before ${op}, to minute ${by + 1} (deadline ${by}${after ? `, ${after.within} minutes after ${after.operation}` : ""})`,
        actions: insertAt(actionsOf(input), at, { type: "wait", minutes }),
        mutated: [at + 1],
        refusalIsEquivalent: false,
      };
    });
  },
};
