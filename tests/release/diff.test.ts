import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffReleases } from "../../pipeline/release/diff-releases.js";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { buildReleaseFixture, DOMAIN } from "./fixture.js";
import { cleanupTemp, runMain, tempDir } from "./helpers.js";

let outRoot: string;
let a: string;
let b: string;

beforeAll(() => {
  outRoot = join(tempDir("diff-out"), "releases");
  const fa = buildReleaseFixture(tempDir("diff-a"), "a");
  const fb = buildReleaseFixture(tempDir("diff-b"), "b");
  a = exportRelease({ name: "demo", version: "1.0.0", domains: [DOMAIN], ...fa, outRoot, revision: "r" }).dir;
  b = exportRelease({ name: "demo", version: "1.1.0", domains: [DOMAIN], ...fb, outRoot, revision: "r" }).dir;
});
afterAll(cleanupTemp);

describe("diffReleases", () => {
  it("lists the added, removed and changed task, with the golden events that differ", () => {
    const d = diffReleases(a, b);
    expect(d.identical).toBe(false);
    expect(d.tasks.added).toEqual([{ domain: DOMAIN, task: "memo-payment" }]);
    expect(d.tasks.removed).toEqual([{ domain: DOMAIN, task: "release-payment" }]);
    expect(d.tasks.changed.map((t) => t.task)).toEqual(["move-funds"]);
    const t = d.tasks.changed[0]!;
    expect(t.fields.map((f) => f.path)).toEqual(["title", "objective", "scenario.opening_request", "scenario.approves[0].terms.amount", "reference_plan[0].args.amount", "reference_plan[2].args.amount"]);
    expect(t.checks).toEqual({ added: [], removed: [], changed: ["transfer-executed"] });
    // 1: the customer's request; 2-4: proposal, approval, execution carry the new amount; 5: the state hash chain after them.
    expect(t.golden?.events.map((e) => [e.index, e.change, e.name])).toEqual([
      [1, "changed", "message"],
      [2, "changed", "propose_transfer"],
      [3, "changed", "approve_transfer"],
      [4, "changed", "execute_transfer"],
      [5, "changed", "message"],
    ]);
    const ev = t.golden!.events;
    expect(ev[0]!.changes).toEqual([
      { type: "CHANGE", path: "text", old: "Please move EUR 5,000 from our operating account ACC-001 to the reserve account ACC-002.", new: "Please move EUR 6,000 from our operating account ACC-001 to the reserve account ACC-002." },
    ]);
    expect(ev[3]!.changes.slice(0, 2)).toEqual([
      { type: "CHANGE", path: "args.amount", old: 5000, new: 6000 },
      { type: "CHANGE", path: "result.amount", old: 5000, new: 6000 },
    ]);
    expect(ev[3]!.changes).toContainEqual({ type: "CHANGE", path: "changes[0].after.balance", old: 95000, new: 94000 });
    expect(ev[4]!.changes.map((c) => c.path)).toEqual(["state_hash"]);
    expect(t.golden!.trace.map((c) => c.path)).toEqual(["final_state_hash"]);
  });

  it("lists documents and checks added, removed and changed", () => {
    const d = diffReleases(a, b);
    expect(d.documents).toEqual({ added: [`${DOMAIN}/memo-guidelines@1.0`], removed: [], changed: [`${DOMAIN}/payment-release-procedure@1.0`] });
    expect(d.checks.added.map((c) => `${c.task}/${c.check}:${c.group}`)).toEqual(["memo-payment/memo-written:goal", "memo-payment/others-untouched:protection"]);
    expect(d.checks.removed.map((c) => `${c.task}/${c.check}:${c.group}`)).toEqual([
      "release-payment/acc2-untouched:protection",
      "release-payment/before-cutoff:process",
      "release-payment/no-adjustments:protection",
      "release-payment/payment-released:goal",
    ]);
    expect(d.checks.changed).toEqual([{ domain: DOMAIN, task: "move-funds", check: "transfer-executed", group: "goal", changes: [{ type: "CHANGE", path: "params.args.amount", old: 5000, new: 6000 }] }]);
    expect(d.files.added).toEqual([`domains/${DOMAIN}/docs/memo-guidelines.md`, `domains/${DOMAIN}/env-configs/memo-payment.json`, `domains/${DOMAIN}/golden/memo-payment.json`, `domains/${DOMAIN}/tasks/memo-payment.json`, `domains/${DOMAIN}/violations/memo-payment/do_nothing.json`]);
    expect(d.warnings).toEqual([]);
  });

  it("finds nothing between a release and itself", () => {
    const d = diffReleases(a, a);
    expect(d.identical).toBe(true);
    expect([d.files, d.tasks, d.documents, d.checks]).toEqual([
      { added: [], removed: [], changed: [] },
      { added: [], removed: [], changed: [] },
      { added: [], removed: [], changed: [] },
      { added: [], removed: [], changed: [] },
    ]);
  });

  it("synth diff prints a readable summary and JSON, resolving NAME@X.Y.Z", async () => {
    const text = await runMain(["diff", "demo@1.0.0", "demo@1.1.0", "--releases", outRoot]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines).toContain("tasks: 1 added, 1 removed, 1 changed");
    expect(lines).toContain(`  + ${DOMAIN}/memo-payment`);
    expect(lines).toContain(`  - ${DOMAIN}/release-payment`);
    expect(lines).toContain(`  ~ ${DOMAIN}/move-funds: 6 field change(s); 1 check change(s); golden events 1, 2, 3, 4, 5 differ`);
    expect(lines).toContain(`  ~ ${DOMAIN}/move-funds/transfer-executed (goal): params.args.amount 5000 → 6000`);
    expect(lines.some((l) => l.startsWith("      golden event 4 (execute_transfer): args.amount 5000 → 6000; result.amount 5000 → 6000;"))).toBe(true);
    const json = await runMain(["diff", a, b, "--json"]);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as { tasks: { added: unknown[] } }).tasks.added).toEqual([{ domain: DOMAIN, task: "memo-payment" }]);
  });
});
