import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { TaskView } from "../../pipeline/show/task-view.js";
import { SAMPLE, SAMPLE_DIR, VERSION } from "./show-fixture.js";

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

describe("synth show --json", () => {
  it("prints one object the TaskView schema accepts, with the same content as the text view", () => {
    const r = runCli(["show", SAMPLE, "fx-treasury-003", "--json"]);
    expect(r.code).toBe(0);
    const view = TaskView.parse(JSON.parse(r.stdout));
    expect(view.release).toMatchObject({ name: "sample", version: VERSION });
    expect(view.trace).toEqual({ kind: "golden", file: "domains/fx-treasury/golden/fx-treasury-003.json" });
    const golden = JSON.parse(readFileSync(join(SAMPLE_DIR, "domains/fx-treasury/golden/fx-treasury-003.json"), "utf8")) as { events: unknown[] };
    expect(view.events).toHaveLength(golden.events.length);
    const task = JSON.parse(readFileSync(join(SAMPLE_DIR, "domains/fx-treasury/tasks/fx-treasury-003.json"), "utf8")) as { checks: Record<string, unknown[]>; reference_plan: unknown[] };
    expect(view.checks).toHaveLength(Object.values(task.checks).flat().length);
    // every reference-plan step is placed at one event, in order
    const plan = task.reference_plan as Array<{ step: number; operation: string }>;
    const label = (e: (typeof view.events)[number]) => (e.kind === "agent_message" ? "ask" : e.kind === "approval" ? "approve" : e.name);
    expect(view.events.filter((e) => e.plan !== null).map((e) => [e.plan!.step, label(e)])).toEqual(plan.map((p) => [p.step, p.operation]));
    expect(view.task.private_facts.every((f) => f.hidden_from_agent)).toBe(true);
    // the golden trace passes every check, and every violation trace aimed at a check fails it
    expect(view.checks.filter((c) => !c.verdict.passed)).toEqual([]);
    const violations = view.checks.flatMap((c) => c.violations);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.filter((v) => v.verdict.passed)).toEqual([]);
    // the approval step follows SEC/PAY clauses quoted from the document version
    const approval = view.events.find((e) => e.kind === "approval");
    expect(approval?.clause?.text).toBeTruthy();
  });
});

describe("synth show: bad input", () => {
  it("an unknown task id exits 1 naming the id and the nearest ids", () => {
    const r = runCli(["show", SAMPLE, "fx-treasury-01"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`[TASK_NOT_FOUND] no task fx-treasury-01 in ${SAMPLE}; nearest: fx-treasury-011, fx-treasury-012, fx-treasury-013, fx-treasury-014, fx-treasury-015 (got "fx-treasury-01")`);
    expect(r.stderr).toContain('(got "fx-treasury-01")');
  });

  it("a tampered release is refused naming the file", () => {
    const copy = join(mkdtempSync(join(tmpdir(), "show-tamper-")), VERSION);
    cpSync(SAMPLE_DIR, copy, { recursive: true });
    makeWritable(copy);
    const golden = join(copy, "domains", "ed-triage", "golden", "ed-triage-002.json");
    writeFileSync(golden, readFileSync(golden, "utf8").replace('"pain_score": 3', '"pain_score": 4'));
    const r = runCli(["show", copy, "ed-triage-002"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(`${golden}: [RELEASE_TAMPERED] refusing to show: content changed: sha256`);
  });

  it("bad flags and missing arguments exit 2", () => {
    const flag = runCli(["show", SAMPLE, "fx-treasury-001", "--colour"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--colour'");
    const missing = runCli(["show", SAMPLE]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'task'");
    const html = runCli(["show", SAMPLE, "fx-treasury-001", "--html"]);
    expect(html.code).toBe(2);
    expect(html.stderr).toContain("option '--html <out>' argument missing");
  });
});
