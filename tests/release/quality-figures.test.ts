import { describe, expect, it } from "vitest";
import { ValidationReport, type Trace } from "../../pipeline/schemas/index.js";
import { horizon, horizonFigures, qualityFigures, repairedOperator } from "../../pipeline/release/quality-figures.js";
import { qualityFiguresSection } from "../../pipeline/release/quality-section.js";
import type { DomainSummary } from "../../pipeline/release/collect-domain.js";

const mutant = (operator: string, killed: boolean) => ({ operator, target_check: killed ? `c-${operator}` : null, killed, failed_checks: [] });
const gates: never[] = [];
// A build's validation.json: a released task, a task released after repair, a dropped task.
const report = ValidationReport.parse({
  domain: "d",
  tasks: [
    { task: "t-1", status: "released", gates, mutants: [mutant("drop_approval", true), mutant("execute_twice", true), mutant("do_nothing", true)], not_applicable: [{ operator: "miss_deadline", reason: "no deadline" }], kill_rate: 1, repairs: [], probes: { competent: true, "newest-version": true, "first-found": false }, difficulty: "medium", drop_reason: null },
    {
      task: "t-2", status: "released", gates, mutants: [mutant("use_unobtained_fact", true), mutant("execute_twice", true), mutant("touch_protected_object", false)], kill_rate: 2 / 3,
      repairs: [{ attempt: 1, diagnosis: "violations: killed 2 of 3 mutants (67%); survivors: use_unobtained_fact→no check. First: mutant use_unobtained_fact (dropped the question) survived: no check", action: "mutant use_unobtained_fact survived (no check of its kinds): added process check process-fact-x (fact_elicited_before_use, from customer)" }],
      probes: { competent: true, "newest-version": false, "first-found": false }, difficulty: "hard", drop_reason: null,
    },
    {
      task: "t-3", status: "dropped", gates, mutants: [mutant("drop_approval", true), mutant("do_nothing", false)], not_applicable: [{ operator: "miss_deadline", reason: "no deadline" }, { operator: "execute_twice", reason: "refused" }], kill_rate: 0.5,
      repairs: [{ attempt: 1, diagnosis: "violations / goal-x: killed 1 of 2 mutants (50%); survivors: do_nothing→goal-x. First: mutant do_nothing (did nothing) survived check goal-x: passes", action: "none available" }],
      probes: { competent: false }, difficulty: null, drop_reason: "cannot be repaired: weak goal",
    },
  ],
  summary: { generated: 3, released: 2, dropped: 1, repaired: 2, mutants_total: 6, mutants_killed: 5, kill_rate: 5 / 6, kill_rate_by_operator: {}, survivors: [] },
});

describe("quality figures from the build's records", () => {
  it("kill rate over all generated tasks, survivors with what repair did, per operator, per probe", () => {
    const q = qualityFigures(report);
    expect(q.generated).toBe(3);
    expect(q.mutants).toEqual({ total: 8, killed: 6 });
    expect(q.survivors).toEqual([
      { task: "t-2", operator: "use_unobtained_fact", outcome: "repair 1: mutant use_unobtained_fact survived (no check of its kinds): added process check process-fact-x (fact_elicited_before_use, from customer)" },
      { task: "t-2", operator: "touch_protected_object", outcome: "released" },
      { task: "t-3", operator: "do_nothing", outcome: "repair 1: none available" },
      { task: "t-3", operator: "do_nothing", outcome: "dropped: cannot be repaired: weak goal" },
    ]);
    expect(q.byOperator).toEqual({
      drop_approval: { applied: 2, killed: 2, repaired: 0, not_applicable: 0 },
      execute_twice: { applied: 2, killed: 2, repaired: 0, not_applicable: 1 },
      do_nothing: { applied: 2, killed: 1, repaired: 0, not_applicable: 0 },
      miss_deadline: { applied: 0, killed: 0, repaired: 0, not_applicable: 2 },
      use_unobtained_fact: { applied: 1, killed: 1, repaired: 1, not_applicable: 0 },
      touch_protected_object: { applied: 1, killed: 0, repaired: 0, not_applicable: 0 },
    });
    // Released tasks only: the dropped task's competent failure does not count.
    expect(q.probes).toEqual({ competent: { solved: 2, runs: 2 }, "newest-version": { solved: 1, runs: 2 }, "first-found": { solved: 0, runs: 2 } });
    expect(repairedOperator("golden_replay: mutant x (y)")).toBeNull();
  });

  it("horizon: agent events per golden trace; median, quartiles, max, share ≥ 40", () => {
    const trace = { events: [{ actor: "agent" }, { actor: "customer" }, { actor: "agent" }, { actor: "system" }] } as unknown as Trace;
    expect(horizon(trace)).toBe(2);
    expect(horizonFigures([8, 40, 21, 3, 55])).toEqual({ tasks: 5, median: 21, q1: 8, q3: 40, max: 55, atLeast40: 2 });
    expect(horizonFigures([10, 20])).toEqual({ tasks: 2, median: 15, q1: 12.5, q3: 17.5, max: 20, atLeast40: 0 });
    expect(horizonFigures([])).toBeNull();
  });

  it("the datasheet section states exactly those figures", () => {
    const text = qualityFiguresSection([{ id: "d", report, horizons: [8, 40, 21, 3, 55] } as unknown as DomainSummary]).join("\n");
    expect(text).toContain("Kill rate of violation traces over all 3 generated task(s), dropped ones included (each task's last verification): 0.750 (6 of 8).");
    expect(text).toContain("| d | t-2 | touch_protected_object | released |");
    expect(text).toContain("| d | t-3 | do_nothing | dropped: cannot be repaired: weak goal |");
    expect(text).toContain("| use_unobtained_fact | 1 | 1 | 1 | 0 |");
    expect(text).toContain("| miss_deadline | 0 | 0 | 0 | 2 |");
    expect(text).toContain("| domain | competent | first-found | newest-version |\n| --- | --- | --- | --- |\n| d | 2/2 (100%) | 0/2 (0%) | 1/2 (50%) |");
    expect(text).toContain("| d | 5 | 21 | 8–40 | 55 | 2/5 (40%) |");
    expect(text).toContain("| all | 5 | 21 | 8–40 | 55 | 2/5 (40%) |");
  });
});

describe("demo figures from a build's generated folder", () => {
  it("reads validation.json's figures and the released golden traces' horizons", async () => {
    const { mkdtempSync, mkdirSync, writeFileSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const { demoFigures, horizonText } = await import("../../pipeline/release/demo-figures.js");
    const { golden, smallRelease, approvedRelease } = await import("../validation/fixture.js");
    const dir = mkdtempSync(join(tmpdir(), "demo-figures-"));
    mkdirSync(join(dir, "golden"));
    const a = golden(smallRelease());
    const b = golden(approvedRelease());
    writeFileSync(join(dir, "golden", "t-1.json"), JSON.stringify(a));
    writeFileSync(join(dir, "golden", "t-2.json"), JSON.stringify(b));
    writeFileSync(join(dir, "golden", "t-3.json"), JSON.stringify(b)); // dropped: not counted
    const f = demoFigures(report, dir);
    expect(f.kill_rate_all).toEqual({ total: 8, killed: 6 });
    expect(f.probe_solve_rate).toEqual({ competent: "2/2", "first-found": "0/2", "newest-version": "1/2" });
    expect(f.survivors[1]).toBe("t-2: touch_protected_object → released");
    const hs = [horizon(a), horizon(b)].sort((x, y) => x - y);
    expect(f.horizon).toEqual(horizonFigures(hs));
    expect(f.horizon?.tasks).toBe(2);
    expect(horizonText(f.horizon)).toBe(`median ${(hs[0]! + hs[1]!) / 2} (q ${hs[0]! + (hs[1]! - hs[0]!) * 0.25}–${hs[0]! + (hs[1]! - hs[0]!) * 0.75}, max ${hs[1]}, ≥40: 0/2)`);
  });
});
