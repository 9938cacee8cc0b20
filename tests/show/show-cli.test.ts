import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { TaskView } from "../../pipeline/show/task-view.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { SAMPLE, SAMPLE_DIR, tamperedCopy, VERSION } from "./show-fixture.js";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("synth show --json", () => {
  it("prints one object the TaskView schema accepts, with the same content as the text view", () => {
    const r = runCli(["show", SAMPLE, "fx-treasury-024", "--json"]);
    expect(r.code).toBe(0);
    const view = TaskView.parse(JSON.parse(r.stdout));
    expect(view.release).toMatchObject({ name: "sample", version: VERSION });
    expect(view.trace).toEqual({ kind: "golden", file: "domains/fx-treasury/golden/fx-treasury-024.json" });
    const golden = JSON.parse(readFileSync(join(SAMPLE_DIR, "domains/fx-treasury/golden/fx-treasury-024.json"), "utf8")) as { events: unknown[] };
    expect(view.events).toHaveLength(golden.events.length);
    const task = JSON.parse(readFileSync(join(SAMPLE_DIR, "domains/fx-treasury/tasks/fx-treasury-024.json"), "utf8")) as { checks: Record<string, unknown[]>; reference_plan: unknown[] };
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
    // the ids that contain the typo come first, in id order: here the first five fx-treasury-01x of the release
    const nearest = readdirSync(join(SAMPLE_DIR, "domains", "fx-treasury", "tasks"))
      .map((f) => f.replace(/\.json$/, ""))
      .filter((id) => id.startsWith("fx-treasury-01"))
      .sort()
      .slice(0, 5);
    expect(nearest).toHaveLength(5);
    expect(r.stderr).toContain(`[TASK_NOT_FOUND] no task fx-treasury-01 in ${SAMPLE}; nearest: ${nearest.join(", ")} (got "fx-treasury-01")`);
    expect(r.stderr).toContain('(got "fx-treasury-01")');
  });

  it("a tampered release is shown only after a warning naming the file", () => {
    const { dir, golden } = tamperedCopy();
    try {
      const r = runCli(["show", dir, "ed-triage-008"]);
      expect(r.code).toBe(0);
      const lines = r.stderr.split("\n");
      expect(lines[0]).toBe(`warning: ${dir} does not match its manifest (1 file); showing it anyway, --strict refuses it:`);
      expect(lines[1]).toMatch(new RegExp(`^warning: ${escapeRe(golden)}: \\[RELEASE_TAMPERED\\] content changed: sha256 [0-9a-f]{64} differs from the manifest's [0-9a-f]{64}$`));
      expect(lines.slice(2)).toEqual([""]);
      expect(r.stdout.split("\n")[0]).toBe("Task ed-triage-008 (ed-triage) — SBAR handover before the 09:30 shift change (ATT-5137); Escalate a patient who has waited beyond the target time (ATT-5137); Admit a patient to an inpatient bed (ATT-5137)");
    } finally {
      removeTree(join(dir, ".."));
    }
  });

  it("--strict refuses a tampered release, exit 1 naming the file, nothing shown", () => {
    const { dir, golden } = tamperedCopy();
    try {
      const r = runCli(["show", dir, "ed-triage-008", "--strict"]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain(`${golden}: [RELEASE_TAMPERED] refusing to show: content changed: sha256`);
      expect(r.stderr).not.toContain("warning:");
    } finally {
      removeTree(join(dir, ".."));
    }
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
