import type { AcceptanceCheck, Task, TaskValidation } from "../pipeline/schemas/index.js";

/** Probes that follow a version not in force: the ones a version trap is there to stop. */
export const WRONG_VERSION_PROBES = ["newest-version", "first-found"] as const;

/** Whether a check is a version or scope trap: it names a clause of a version not in force, or checks which version was followed. */
export function isTrapCheck(c: AcceptanceCheck): boolean {
  return c.kind === "rule_version_followed" || (c.provenance.source === "rule" && c.provenance.outdated !== undefined);
}

/** The wrong-version probes that failed a task, by its probe results. */
export function wrongVersionFailures(probes: Record<string, boolean>): string[] {
  return WRONG_VERSION_PROBES.filter((p) => probes[p] === false);
}

type Clause = { document: string; version: string; clause?: string };
const cite = (c: Clause | undefined): string | null => (c ? `${c.document}@${c.version}${c.clause ? ` ${c.clause}` : ""}` : null);

/**
 * The version and scope traps a task contains, for its validation report: each check that names
 * a clause of a version not in force (or checks which version was followed), the clause in force
 * and the outdated one, and which of the probes that follow a version not in force failed the task.
 */
export function taskTraps(task: Task, probes: Record<string, boolean>): NonNullable<TaskValidation["traps"]> {
  const failedBy = wrongVersionFailures(probes);
  return [...task.checks.goal, ...task.checks.process, ...task.checks.protection]
    .filter(isTrapCheck)
    .map((c) => {
      const p = c.provenance as { at?: Clause; outdated?: Clause };
      return { check: c.id, in_force: cite(p.at), outdated: cite(p.outdated), failed_by: [...failedBy] };
    });
}
