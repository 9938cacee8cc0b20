import { beforeAll, describe, expect, it } from "vitest";
import { ValidationReport, type Task } from "../../pipeline/schemas/index.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { validateDomainFull, type TaskOutcome } from "../../validation/validate-domain.js";
import { allTasks, domain, golden, smallRelease } from "./fixture.js";

let report: ValidationReport;
let outcomes: TaskOutcome[];

beforeAll(async () => {
  const tasks = allTasks();
  const goldens = new Map<string, unknown>(tasks.map((t) => [t.id, golden(t)]));
  const broken: Task = { ...smallRelease(), id: "broken-golden" };
  const g = golden(broken);
  goldens.set(broken.id, { ...g, events: g.events.map((e) => (e.index === 2 ? { ...e, kind: "teleport" } : e)) });
  const crashing: Task = { ...smallRelease(), id: "solver-crash" };
  const result = await validateDomainFull(domain(), [...tasks, broken, crashing], goldens, {
    solve: (t) => {
      throw new Error(`solver exploded on ${t.id}`);
    },
  });
  report = result.report;
  outcomes = result.outcomes;
});

describe("validateDomain", () => {
  it("writes a report that parses against the schema", () => {
    expect(ValidationReport.safeParse(report).success).toBe(true);
    expect(report.domain).toBe("mini-payments");
  });

  it("releases the calibrated tasks with their difficulty, drops the rest with a reason", () => {
    expect(report.tasks.map((t) => [t.task, t.status, t.difficulty])).toEqual([
      ["release-small", "released", "hard"],
      ["release-approved", "released", "hard"],
      ["fund-and-release", "released", "expert"],
      ["desk-note", "dropped", null],
      ["broken-golden", "dropped", null],
      ["solver-crash", "dropped", null],
    ]);
    expect(report.tasks[3]?.drop_reason).toBe("cannot be repaired: difficulty: too easy: every flawed probe (goal-rusher, newest-version, fact-guesser, no-recheck) solved it, so no rule bites");
    expect(report.tasks[4]?.drop_reason).toMatch(/^cannot be repaired: golden_replay: TRACE_INVALID: golden trace does not parse: events\[1\]\.kind: /);
    expect(report.tasks[5]?.drop_reason).toBe("validation crashed: solver exploded on solver-crash");
    expect(outcomes[0]?.task.difficulty).toBe("hard");
  });

  it("records every gate of a released task in order", () => {
    expect(report.tasks[0]?.gates.map((g) => g.gate)).toEqual(["golden_replay", "scenario_consistency", "alternatives", "violations", "modified_facts", "solvability", "difficulty"]);
    expect(report.tasks[0]?.probes).toEqual({ competent: true, "goal-rusher": false, "newest-version": false, "fact-guesser": false, "no-recheck": true });
  });

  it("sums mutants and kill rates, overall and by operator", () => {
    expect(report.summary).toMatchObject({ generated: 6, released: 3, dropped: 3, repaired: 0, mutants_total: 32, mutants_killed: 32, kill_rate: 1, survivors: [] });
    expect(Object.keys(report.summary.kill_rate_by_operator)).toEqual([
      "drop_approval", "execute_before_approval", "change_terms_after_approval", "reorder_dependent_steps", "breach_constraint_then_restore",
      "touch_protected_object", "follow_outdated_rule", "use_unobtained_fact", "miss_deadline", "execute_twice", "do_nothing",
    ]);
    expect(Object.values(report.summary.kill_rate_by_operator).every((r) => r === 1)).toBe(true);
    expect(report.tasks.slice(0, 4).map((t) => t.kill_rate)).toEqual([1, 1, 1, 1]);
    expect(report.tasks[0]?.not_applicable?.map((n) => n.operator)).toEqual(["drop_approval", "execute_before_approval", "change_terms_after_approval", "reorder_dependent_steps", "execute_twice"]);
  });
});

describe("determinism", () => {
  it("validating the same task again gives the same report entry, byte for byte", async () => {
    const task = allTasks()[2] as Task;
    const again = await validateDomainFull(domain(), [task], { [task.id]: golden(task) });
    expect(canonicalJson(again.report.tasks[0])).toBe(canonicalJson(report.tasks[2]));
  });
});
