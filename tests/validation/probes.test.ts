import { beforeAll, describe, expect, it } from "vitest";
import type { Task, Trace } from "../../pipeline/schemas/index.js";
import { runActions } from "../../validation/episode-actions.js";
import { judge } from "../../validation/judge.js";
import { identifyProcedures, runProbe } from "../../validation/probes/probe-agent.js";
import { calibrate, runProbePanel, type ProbeRun } from "../../validation/probes/panel.js";
import { COMPETENT, FLAWED_PROBES } from "../../validation/probes/probe-style.js";
import { chooseVersions, readSop } from "../../validation/probes/read-documents.js";
import { agentView } from "../../validation/probes/visible-world.js";
import { calibrateModelProbe, type ModelProbe } from "../../validation/probes/model-probe.js";
import { evaluate } from "../../validation/probes/conditions.js";
import { invented, valueIn } from "../../validation/probes/values.js";
import { allTasks, approvedRelease, domain, fundedRelease, golden, smallRelease } from "./fixture.js";

const panels = new Map<string, ProbeRun[]>();
const solvedBy = (id: string) => Object.fromEntries((panels.get(id) ?? []).map((r) => [r.name, r.solved]));

beforeAll(() => {
  for (const t of allTasks()) panels.set(t.id, runProbePanel(domain(), t));
});

describe("probe panel", () => {
  it("has the competent probe and five flawed ones, each with its one deviation", () => {
    expect([COMPETENT, ...FLAWED_PROBES].map((p) => p.name)).toEqual(["competent", "goal-rusher", "newest-version", "first-found", "fact-guesser", "no-recheck"]);
    for (const p of FLAWED_PROBES) {
      const differs = (["versions", "steps", "asks", "recheck"] as const).filter((k) => p[k] !== COMPETENT[k]);
      expect(differs).toHaveLength(1);
    }
  });

  it("the competent probe solves every fixture task from the documents", () => {
    for (const t of allTasks()) expect(solvedBy(t.id).competent).toBe(true);
  });

  it("works only from what an agent sees: with the plan and checks removed it still solves the task", () => {
    const task = approvedRelease();
    const blind: Task = { ...task, reference_plan: [{ step: 1, actor: "agent", operation: "noop", args: {}, workflow: null, sop_step: null, why: "hidden" }], checks: { goal: [task.checks.goal[0]!], process: [], protection: [] }, documents: { relevant: [], distractors: [] } };
    expect(judge(domain(), task, runProbe(domain(), blind, COMPETENT)).success.strict).toBe(true);
  });

  it("the goal-rusher fails the task that needs an approval, on the approval and the goal", () => {
    const rusher = panels.get("release-approved")?.find((r) => r.name === "goal-rusher");
    expect(rusher?.solved).toBe(false);
    expect(rusher?.failed).toEqual(expect.arrayContaining(["g-released", "p-approval"]));
  });

  it("each flawed probe fails where its deviation bites", () => {
    expect(solvedBy("release-small")).toEqual({ competent: true, "goal-rusher": false, "newest-version": false, "first-found": false, "fact-guesser": false, "no-recheck": true });
    expect(solvedBy("fund-and-release")).toEqual({ competent: true, "goal-rusher": false, "newest-version": false, "first-found": false, "fact-guesser": false, "no-recheck": false });
    // The search ranks the superseded fee schedule (version 1) first: its fee fails the version check.
    expect(panels.get("release-small")?.find((r) => r.name === "first-found")?.failed).toEqual(["p-fee"]);
    expect(panels.get("release-small")?.find((r) => r.name === "newest-version")?.failed).toEqual(["p-fee"]);
    expect(panels.get("fund-and-release")?.find((r) => r.name === "no-recheck")?.failed).toEqual(["g-released", "p-cutoff"]);
  });

  it("labels difficulty by how many flawed probes fail, and drops a task no rule bites", () => {
    expect(allTasks().map((t) => calibrate(panels.get(t.id) ?? []))).toEqual([
      { verdict: "calibrated", difficulty: "expert", flawedFailed: 4, reason: "4 of 5 flawed probes fail (goal-rusher, newest-version, first-found, fact-guesser): expert" },
      { verdict: "calibrated", difficulty: "expert", flawedFailed: 4, reason: "4 of 5 flawed probes fail (goal-rusher, newest-version, first-found, fact-guesser): expert" },
      { verdict: "calibrated", difficulty: "expert", flawedFailed: 5, reason: "5 of 5 flawed probes fail (goal-rusher, newest-version, first-found, fact-guesser, no-recheck): expert" },
      { verdict: "too_easy", difficulty: null, flawedFailed: 0, reason: "too easy: every flawed probe (goal-rusher, newest-version, first-found, fact-guesser, no-recheck) solved it, so no rule bites" },
    ]);
    const run = (name: string, flawed: boolean, solved: boolean): ProbeRun => ({ name, flawed, solved, failed: solved ? [] : ["g"], reasons: solved ? [] : ["g: release_payment was never executed"], trace: golden(smallRelease()) });
    expect(calibrate([run("competent", false, true), run("a", true, false), run("b", true, true)]).difficulty).toBe("easy");
    expect(calibrate([run("competent", false, true), run("a", true, false), run("b", true, false)]).difficulty).toBe("medium");
    const end = golden(smallRelease());
    expect(calibrate([run("competent", false, false), run("a", true, false)])).toMatchObject({
      verdict: "not_solvable",
      reason: `the competent probe could not solve the task from the documents (failed checks: g; g: release_payment was never executed; the probe's episode ended at event ${end.events.length}, minute ${end.clock_end})`,
    });
    // A call the world refused is named with its precondition.
    const refused = { ...end, events: [...end.events, { ...end.events[0]!, index: end.events.length + 1, actor: "agent" as const, name: "release_payment", status: "rejected" as const, reason: "precondition before_cutoff failed: The daily cut-off has passed." }] };
    expect(calibrate([{ name: "competent", flawed: false, solved: false, failed: ["g"], reasons: [], trace: refused }]).reason).toBe(
      `the competent probe could not solve the task from the documents (failed checks: g; event ${refused.events.length} release_payment rejected: precondition before_cutoff failed: The daily cut-off has passed.; the probe's episode ended at event ${refused.events.length}, minute ${refused.clock_end})`,
    );
  });
});

describe("what a probe reads", () => {
  it("picks the fee schedule in force for a corporate client; the newest-version probe picks the retail one", () => {
    const pick = (choice: "applicable" | "newest" | "first-found") => chooseVersions(domain().documents, choice, "2026-03-02", { segments: ["corporate"], regions: ["DE"] }).map((d) => `${d.id}@${d.version}`);
    expect(pick("applicable")).toEqual(["liquidity-policy@1", "payment-fee-schedule@2", "payment-release-procedure@2.0"]);
    expect(pick("newest")).toEqual(["liquidity-policy@1", "payment-fee-schedule@3", "payment-release-procedure@2.0"]);
    // first-found: whichever version search_documents returns first for the title (ties: lower version).
    expect(pick("first-found")).toEqual(["liquidity-policy@1", "payment-fee-schedule@1", "payment-release-procedure@2.0"]);
  });

  it("identifies the procedures the request refers to, in the order it mentions them", () => {
    const sop = readSop(domain().documents.filter((d) => d.id !== "payment-fee-schedule"), agentView(domain().world));
    expect(identifyProcedures(sop.workflows, fundedRelease().scenario.opening_request).map((w) => w.id)).toEqual(["account-funding", "payment-release"]);
    expect(identifyProcedures(sop.workflows, smallRelease().scenario.opening_request).map((w) => w.id)).toEqual(["payment-release"]);
  });

  it("evaluates decision conditions from what it has seen", () => {
    const env = (amount: number) => ({ state: new Map<string, unknown>([["amount", amount]]), last: null, approved: null });
    expect(evaluate("Amount (EUR): up to and including 10,000.00", env(4000))).toBe(true);
    expect(evaluate("Amount (EUR): above 10,000.00", env(4000))).toBe(false);
    expect(evaluate("the amount is above EUR 10,000.00", env(25000))).toBe(true);
    expect(evaluate("otherwise (not: the client has approved the exact terms)", { ...env(1), approved: true })).toBe(false);
    expect(evaluate("the payment shows as released", { ...env(1), last: { status: "executed", result: { status: "released" }, reason: "" } })).toBe(true);
    expect(evaluate("the beneficiary is awaiting a call-back", env(1))).toBeUndefined();
  });

  it("reads values from answers by the parameter's pattern, and invents them from it when it never asks", () => {
    const p = { type: "string" as const, description: "Invoice.", required: true, max_length: 200, source: "customer" as const, pattern: "^INV-\\d{4}-\\d{4}$" };
    expect(valueIn("The invoice reference is INV-2026-0101.", p)).toBe("INV-2026-0101");
    expect(invented(p)).toBe("INV-0000-0000");
    expect(valueIn("Please move EUR 5,000.00.", { ...p, type: "number", pattern: undefined })).toBe(5000);
  });
});

describe("model probes", () => {
  const task = smallRelease();
  const solvedTrace = golden(task);
  const failedTrace = runActions(domain(), task, [{ type: "open" }]);
  const scripted = (name: string, results: { with: boolean[]; without: boolean[] }): ModelProbe => ({
    name,
    run: async (_t, o): Promise<Trace> => ((o.withReferencePlan ? results.with : results.without)[o.attempt - 1] ? solvedTrace : failedTrace),
  });
  const solved = (t: Trace) => judge(domain(), task, t).success.strict;

  it("applies the 0%/100% filter over k runs with and without the reference plan", async () => {
    expect(await calibrateModelProbe(scripted("m1", { without: [true, false, false], with: [true, true, false] }), task, 3, solved)).toEqual({
      probe: "m1", k: 3, without_plan: 1 / 3, with_plan: 2 / 3, verdict: "keep", reason: "m1 solved 33% without and 67% with the reference plan",
    });
    expect((await calibrateModelProbe(scripted("m2", { without: [true, true], with: [true, true] }), task, 2, solved)).verdict).toBe("too_easy");
    expect((await calibrateModelProbe(scripted("m3", { without: [false, false], with: [false, false] }), task, 2, solved)).reason).toBe("m3 solved none of 2 runs even with the reference plan");
    await expect(calibrateModelProbe(scripted("m4", { without: [], with: [] }), task, 0, solved)).rejects.toThrow("Expected `k` to be a whole number from 1 and up, got `0`");
  });
});
