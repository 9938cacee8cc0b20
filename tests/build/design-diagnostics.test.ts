import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { printOutcome } from "../../pipeline/cli/commands/build.js";
import { runCli } from "../cli/run-cli.js";

// The acme-payments fixture with one world edit that makes its only workflow infeasible: the build
// must name the workflow, the subject row, the step and the reason, in report.json and on screen.

const RELEASE_PARAM = "      invoice_ref: { type: string, description: Invoice reference given by the client., source: customer }";

function workspace(edit: (world: string) => string, slots = 2): string {
  const root = mkdtempSync(join(tmpdir(), "design-diag-"));
  cpSync("tests/fixtures/sources/acme-payments", join(root, "sources/acme-payments"), { recursive: true });
  const world = join(root, "sources/acme-payments/world.yaml");
  const before = readFileSync(world, "utf8");
  const after = edit(before);
  expect(after).not.toBe(before);
  writeFileSync(world, after);
  const card = join(root, "sources/acme-payments/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace("seed: 7", `seed: 7\n  task_count: ${slots}`));
  return root;
}

const paths = (root: string) => ({ sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") });
const config = resolveConfig({ env: {}, cwd: "/nonexistent" });
const stageOf = (root: string, stage: string) => (JSON.parse(readFileSync(join(root, "generated/acme-payments/report.json"), "utf8")) as { stages: Array<{ stage: string }> }).stages.find((s) => s.stage === stage);

/** The build table as one line of words (box characters and wrapping removed). */
function screen(outcome: Awaited<ReturnType<typeof runBuild>>): string {
  const chunks: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((c: string | Uint8Array) => (chunks.push(String(c)), true));
  try {
    printOutcome(outcome, false);
  } finally {
    spy.mockRestore();
  }
  return chunks.join("").replace(/\x1b\[[0-9;]*m/g, "").replace(/[│┌┐└┘├┤┬┴┼─]/g, " ").replace(/\s+/g, " ");
}

describe("a build names every unit the designer could not execute", () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it("a step with no value for a parameter: report.json and the build table name workflow, row, step and parameter", async () => {
    const root = workspace((w) => w.replace(RELEASE_PARAM, `${RELEASE_PARAM}\n      release_code: { type: string, description: Release code issued by the payment network., source: state }`), 6);
    const outcome = await runBuild({ config, paths: paths(root), progress: new Progress("silent") });
    const expected = { stage: "design_units", items_in: 1, items_out: 0, dropped: [{ item: "payment-release on payments PAY-00001", reason: "step s5 (release_payment): no value for release_code" }] };
    expect(stageOf(root, "design_units")).toEqual(expected);
    expect(outcome.domains[0]!.stages.find((s) => s.stage === "design_units")).toEqual(expected);
    const slotReason = "design: no executable combination in 12 attempts; last: CL-001: no workflow can be carried out for this customer's rows";
    const slots = [1, 2, 3, 4, 5, 6].map((n) => ({ item: `slot-${n}`, reason: slotReason }));
    expect(stageOf(root, "design_tasks")).toEqual({ stage: "design_tasks", items_in: 6, items_out: 0, dropped: slots });
    const text = screen(outcome);
    expect(text).toContain("acme-payments design_units 1 0 1 (step s5 (release_payment) 1)");
    expect(text).toContain("acme-payments design_tasks 6 0 6 (design 6)");
    expect(text).toContain("dropped, with their reasons: acme-payments design_units payment-release on payments PAY-00001: step s5 (release_payment): no value for release_code ");
    // The six slots share one reason: one line names them and gives the reason whole.
    expect(text).toContain(` acme-payments design_tasks slot-1, slot-2, slot-3 and 3 more: ${slotReason} `);
  }, 60_000);

  it("a refusing precondition: the reason names the precondition and its message, in full, also with --json", () => {
    const message = "Releases of pending payments are frozen by the treasury desk until the quarterly reconciliation of every client account has been signed off by the head of payment operations and the compliance officer on duty.";
    const root = workspace((w) => w.replace("      - id: before_cutoff", `      - id: not_frozen\n        sql: "SELECT status <> 'pending' FROM payments WHERE payment_id = :payment_id"\n        message: ${message}\n      - id: before_cutoff`));
    const r = runCli(["build", "--json", "--sources", paths(root).sources, "--sop", paths(root).sop, "--generated", paths(root).generated], { timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const result = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { event: string; domains?: Array<{ stages: unknown[] }> }).find((e) => e.event === "result");
    const expected = { stage: "design_units", items_in: 1, items_out: 0, dropped: [{ item: "payment-release on payments PAY-00001", reason: `step s5 (release_payment): not_frozen: ${message}` }] };
    expect(result?.domains?.[0]?.stages).toContainEqual(expected);
    expect(stageOf(root, "design_units")).toEqual(expected);
  }, 120_000);
});
