import type { AcceptanceCheck, Task } from "../../schemas/index.js";
import { canonicalJson } from "../../core/canonical-json.js";
import { MUTATION_OPERATORS } from "../../../validation/mutants/registry.js";
import { DeterministicRubricWriter } from "../rubric-writer/deterministic.js";
import type { DomainContext } from "../types.js";

type Group = "process" | "protection";
const GROUPS: readonly Group[] = ["process", "protection"];

/** What repairing a surviving mutant changed, in words, and the task it produced. */
export interface CheckRepair {
  task: Task;
  action: string;
}

const describe = (c: AcceptanceCheck) => `${c.group} check ${c.id} (${c.kind}, from ${c.provenance.source === "rule" ? `rule ${c.provenance.rule}` : c.provenance.source})`;

/**
 * Repair before drop: a mutant survived because the check it targets is missing (a gap) or weaker
 * than what the rubric writer derives from the documents for this task. The rubric is written again
 * from the task's plan and rules; each process or protection check of a kind the surviving operator
 * targets is added when the task lacks it, or replaces the task's check of the same id when the two
 * differ (strengthened). Every added check carries the rubric writer's provenance (the rule or
 * procedure step it comes from). Null when the rubric has nothing the task lacks for that operator:
 * the task is then dropped with its diagnosis.
 */
export async function addMissingCheck(ctx: DomainContext, task: Task, operator: string, target: string | null): Promise<CheckRepair | null> {
  const op = MUTATION_OPERATORS.find((o) => o.name === operator);
  if (!op || op.targets.includes("goal")) return null;
  const kinds = new Set(op.targets);
  const written = await new DeterministicRubricWriter().writeChecks(ctx, task);
  const changes: string[] = [];
  const checks = { ...task.checks };
  for (const group of GROUPS) {
    const list = [...checks[group]];
    for (const want of written.checks[group].filter((c) => kinds.has(c.kind))) {
      const at = list.findIndex((c) => c.id === want.id);
      if (at < 0) {
        list.push(want);
        changes.push(`added ${describe(want)}`);
      } else if (canonicalJson(list[at]) !== canonicalJson(want) && (target === null || target === want.id)) {
        list[at] = want;
        changes.push(`strengthened ${describe(want)}`);
      }
    }
    checks[group] = list;
  }
  if (changes.length === 0) return null;
  return { task: { ...task, checks }, action: `mutant ${operator} survived${target ? ` check ${target}` : " (no check of its kinds)"}: ${changes.join("; ")}` };
}
