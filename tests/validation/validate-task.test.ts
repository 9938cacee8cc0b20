import { beforeAll, describe, expect, it } from "vitest";
import { ValidationReport, type Task } from "../../pipeline/schemas/index.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { calibrateTask, MIN_KILLED_MUTANTS, mayRepair, releaseTasks, repairAttempts, verifyTask, type ReleaseVerdict, type Verification } from "../../validation/validate-task.js";
import { summarize } from "../../validation/validate-domain.js";
import { allTasks, domain, golden, smallRelease } from "./fixture.js";

/** The three stages as the graph runs them, on the fixture domain (no repairs needed). */
async function validate(tasks: readonly Task[], goldens: ReadonlyMap<string, unknown>): Promise<{ verifications: Verification[]; verdicts: ReleaseVerdict[]; report: ValidationReport }> {
  const ctx = domain();
  const verifications = tasks.map((t) => verifyTask(ctx, t, goldens.get(t.id)));
  const candidates = tasks.flatMap((task, i) => (verifications[i]?.diagnosis ? [] : [{ task, validation: (verifications[i] as Verification).validation }]));
  const verdicts = await releaseTasks(candidates, { calibrate: (t) => calibrateTask(ctx, t) });
  const byId = new Map(verdicts.map((v, i) => [candidates[i]?.task.id, v.validation]));
  const entries = tasks.map((t, i) => byId.get(t.id) ?? (verifications[i] as Verification).validation);
  return { verifications, verdicts, report: summarize(ctx.card.id, entries) };
}

let result: Awaited<ReturnType<typeof validate>>;

beforeAll(async () => {
  const tasks = allTasks();
  const goldens = new Map<string, unknown>(tasks.map((t) => [t.id, golden(t)]));
  const broken: Task = { ...smallRelease(), id: "broken-golden" };
  const g = golden(broken);
  goldens.set(broken.id, { ...g, events: g.events.map((e) => (e.index === 2 ? { ...e, kind: "teleport" } : e)) });
  const duplicate: Task = { ...smallRelease(), id: "release-small-again" };
  goldens.set(duplicate.id, { ...golden(duplicate) });
  result = await validate([...tasks, broken, duplicate], goldens);
});

describe("the validation entry point (verify, then the release rules and the probe panel)", () => {
  it("writes a report that parses against the schema", () => {
    expect(ValidationReport.safeParse(result.report).success).toBe(true);
    expect(result.report.domain).toBe("mini-payments");
  });

  it("releases the calibrated tasks with their difficulty, drops the rest with a reason", () => {
    const { report } = result;
    expect(report.tasks.map((t) => [t.task, t.status, t.difficulty])).toEqual([
      ["release-small", "released", "expert"],
      ["release-approved", "released", "expert"],
      ["fund-and-release", "released", "expert"],
      ["desk-note", "dropped", null],
      ["broken-golden", "dropped", null],
      ["release-small-again", "dropped", null],
    ]);
    expect(report.tasks[4]?.drop_reason).toMatch(/^golden_replay: TRACE_INVALID: golden trace does not parse: events\[1\]\.kind: /);
    expect(result.verdicts.filter((v) => v.status === "released").map((v) => v.status === "released" && v.task.difficulty)).toEqual(["expert", "expert", "expert"]);
  });

  it("drops a task with 4 killed violation traces with its reason, before any probe runs", () => {
    const desk = result.report.tasks[3];
    expect(desk?.mutants.filter((m) => m.killed).length).toBe(4);
    expect(MIN_KILLED_MUTANTS).toBe(5);
    expect(desk?.drop_reason).toBe("violations: only 4 violation trace(s) apply and fail on their target check; a released task needs at least 5");
    expect(desk?.probes).toEqual({});
  });

  it("drops a task that repeats a released task's workflows and plan as its duplicate", () => {
    expect(result.report.tasks[5]?.drop_reason).toBe("duplicate of release-small");
  });

  it("records every gate of a released task in order", () => {
    expect(result.report.tasks[0]?.gates.map((g) => g.gate)).toEqual(["golden_replay", "scenario_consistency", "alternatives", "violations", "modified_facts", "solvability", "difficulty"]);
    expect(result.report.tasks[0]?.probes).toEqual({ competent: true, "goal-rusher": false, "newest-version": false, "first-found": false, "fact-guesser": false, "no-recheck": true });
  });

  it("sums mutants and kill rates, overall and by operator", () => {
    const { summary } = result.report;
    expect(summary).toMatchObject({ generated: 6, released: 3, dropped: 3, repaired: 0, mutants_total: 40, mutants_killed: 40, kill_rate: 1, survivors: [] });
    expect(Object.keys(summary.kill_rate_by_operator)).toEqual([
      "drop_approval", "execute_before_approval", "change_terms_after_approval", "reorder_dependent_steps", "breach_constraint_then_restore",
      "touch_protected_object", "follow_outdated_rule", "use_unobtained_fact", "miss_deadline", "execute_twice", "do_nothing",
    ]);
    expect(Object.values(summary.kill_rate_by_operator).every((r) => r === 1)).toBe(true);
    expect(result.report.tasks[0]?.not_applicable?.map((n) => n.operator)).toEqual(["drop_approval", "execute_before_approval", "change_terms_after_approval", "reuse_stale_approval", "reorder_dependent_steps", "take_other_branch", "act_before_information", "execute_twice"]);
  });

  it("keeps every judged violation trace with its label, in report order", () => {
    expect(result.verifications[0]?.violations.map((v) => v.label)).toEqual(result.report.tasks[0]?.mutants.map((m, i, all) => (all.slice(0, i).some((x) => x.operator === m.operator) ? `${m.operator}-2` : m.operator)));
  });
});

describe("repair budget", () => {
  it("comes from the domain card's generation.repair_attempts", () => {
    const card = domain().card;
    const one = { ...card, generation: { ...card.generation, repair_attempts: 1 } };
    expect(repairAttempts(card)).toBe(2);
    expect(mayRepair(one, 0, "violations: x")).toEqual({ repair: true });
    expect(mayRepair(one, 1, "violations: x")).toEqual({ repair: false, reason: "violations: x (still failing after 1 repair attempt; the domain card allows 1)" });
    expect(mayRepair({ ...card, generation: { ...card.generation, repair_attempts: 0 } }, 0, "solve: no route")).toEqual({ repair: false, reason: "solve: no route (still failing after 0 repair attempts; the domain card allows 0)" });
  });
});

describe("determinism", () => {
  it("validating the same task again gives the same report entry, byte for byte", async () => {
    const task = allTasks()[2] as Task;
    const again = await validate([task], new Map([[task.id, golden(task)]]));
    expect(canonicalJson(again.report.tasks[0])).toBe(canonicalJson(result.report.tasks[2]));
  });
});
