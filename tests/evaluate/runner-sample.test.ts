import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluateSample, SAMPLE, strictRate } from "./runner-fixture.js";

// The "done when" figures of issue 13 on the newest sample release, deterministic customer.
const TASKS = (JSON.parse(readFileSync(join(SAMPLE, "manifest.json"), "utf8")) as { counts: { tasks: number } }).counts.tasks;
describe("synth evaluate on the sample release", () => {
  it("oracle: 100% strict success at E0, every episode finished, efficiency 1 against the golden trace", async () => {
    const o = await evaluateSample({ agent: "oracle" });
    expect(o.results).toHaveLength(TASKS);
    expect(o.results.every((r) => r.strict_success && r.end === "finished" && r.status === "completed")).toBe(true);
    expect(o.results.every((r) => r.calls.total === r.golden_calls.total)).toBe(true);
    expect(o.summary.overall.strict_success.rate).toBe(1);
  }, 120_000);

  it("oracle under explicit faults: a call a fault replaced is made again, so it stays the upper bound", async () => {
    const o = await evaluateSample({ agent: "oracle", conditions: ["E1"] });
    const faulted = o.results.filter((r) => r.faults_injected > 0);
    expect(faulted.length).toBeGreaterThan(40);
    // Every faulted episode made more calls than the golden trace: the retries.
    expect(faulted.every((r) => r.calls.total > r.golden_calls.total)).toBe(true);
    // …and uses the ids its own calls returned (a hold, a bed request) where the golden trace's differ.
    expect(strictRate(o, "E1")).toBe(1);
  }, 120_000);

  it("noop: 0% at every condition, nothing called", async () => {
    const o = await evaluateSample({ agent: "noop", conditions: ["E0", "E1", "E2", "E3"] });
    expect(o.results).toHaveLength(4 * TASKS);
    for (const c of ["E0", "E1", "E2", "E3"]) expect(strictRate(o, c)).toBe(0);
    expect(o.results.every((r) => r.calls.total === 0 && r.faults_injected === 0)).toBe(true);
  }, 120_000);

  it("the competent probe scores above every flawed probe at E0; no-recheck completes less under E1 and E2 than at E0", async () => {
    const competent = strictRate(await evaluateSample({ agent: "probe:competent" }), "E0");
    const flawed: Record<string, number> = {};
    for (const name of ["goal-rusher", "newest-version", "fact-guesser"]) flawed[name] = strictRate(await evaluateSample({ agent: `probe:${name}` }), "E0");
    const noRecheck = await evaluateSample({ agent: "probe:no-recheck", conditions: ["E0", "E1", "E2"] });
    flawed["no-recheck"] = strictRate(noRecheck, "E0");
    for (const [name, rate] of Object.entries(flawed)) expect(competent, `competent (${competent}) vs ${name} (${rate})`).toBeGreaterThan(rate);
    expect(strictRate(noRecheck, "E1")).toBeLessThan(strictRate(noRecheck, "E0"));
    expect(strictRate(noRecheck, "E2")).toBeLessThan(strictRate(noRecheck, "E0"));
    // Probes read documents through the document tools: the reads are in the trace and count.
    expect(noRecheck.results.every((r) => r.calls.document_reads >= 1)).toBe(true);
  }, 300_000);
});
