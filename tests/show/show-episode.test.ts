import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { TaskView } from "../../pipeline/show/task-view.js";
import { SAMPLE } from "./show-fixture.js";

const EPISODE = "fx-treasury/fx-treasury-003/E0/0";
let run: string;

beforeAll(() => {
  // fact-guesser cancels a payment with a reason it never asked the customer for: one check fails at one event
  run = join(mkdtempSync(join(tmpdir(), "show-episode-")), "eval");
  const r = runCli(["evaluate", SAMPLE, "--agent", "probe:fact-guesser", "--conditions", "E0", "--runs", "1", "--tasks", "fx-treasury-003,fx-treasury-001", "--out", run], { env: { FOUNDRY_MODEL: "", FOUNDRY_CONFIG: "/dev/null" } });
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

describe("synth show RUN_DIR EPISODE", () => {
  it("places a failed check's reason at the event that decided it", () => {
    const r = runCli(["show", run, EPISODE]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[2]).toBe(`trace: episode ${EPISODE} (probe:fact-guesser, E0, strict success no) traces/fx-treasury/fx-treasury-003.E0.run0.json`);
    const at = lines.indexOf('[31] t=0 agent tool_call cancel_payment {"payment_id":"PAY-10011","reason":"client_request"} → executed');
    expect(at).toBeGreaterThan(0);
    const next = lines.findIndex((l, i) => i > at && l.startsWith("["));
    const block = lines.slice(at, next < 0 ? undefined : next);
    expect(block).toContain("    decides process check process-fact-reason: FAILED");
    expect(block).toContain('    FAILED process-fact-reason: event 31 (cancel_payment) used reason = "client_request" before the customer disclosed fact reason (the customer never disclosed it)');
    // only that event carries a failure
    expect(lines.filter((l) => l.startsWith("    FAILED "))).toHaveLength(1);
  });

  it("--json gives the same placement, schema-checked", () => {
    const r = runCli(["show", run, EPISODE, "--json"]);
    expect(r.code).toBe(0);
    const view = TaskView.parse(JSON.parse(r.stdout));
    expect(view.trace).toMatchObject({ kind: "episode", episode: EPISODE, agent: "probe:fact-guesser", strict_success: false });
    expect(view.events.filter((e) => e.failed.length > 0).map((e) => [e.index, e.failed.map((f) => f.check)])).toEqual([[31, ["process-fact-reason"]]]);
    expect(view.checks.filter((c) => !c.verdict.passed).map((c) => [c.id, c.verdict.event])).toEqual([["process-fact-reason", 31]]);
  });

  it("an unknown episode exits 1 listing the nearest episode ids; a changed trace is refused naming it", () => {
    const unknown = runCli(["show", run, "fx-treasury/fx-treasury-003/E0/7"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`[EPISODE_NOT_FOUND] no episode fx-treasury/fx-treasury-003/E0/7 in ${join(run, "results.jsonl")} (ids are domain/task/condition/run); nearest: ${EPISODE}, fx-treasury/fx-treasury-001/E0/0`);
    const file = join(run, "traces", "fx-treasury", "fx-treasury-003.E0.run0.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"client_request"', '"client_mistake"'));
    const changed = runCli(["show", run, EPISODE]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toBe("");
    expect(changed.stderr).toContain(`${file}: [EPISODE_TRACE_CHANGED] the trace of episode ${EPISODE} is not the one evaluated (sha256 `);
  });
});
