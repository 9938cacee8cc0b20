import { makeServices } from "../../pipeline/build/run-build.js";
import { FoundryConfig } from "../../pipeline/core/config.js";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { graph } from "../../pipeline/graph/build-graph.js";
import type { BuildStateType } from "../../pipeline/graph/state.js";
import { Progress } from "../../pipeline/build/progress.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { DeterministicSolver } from "../../pipeline/agents/solver/deterministic.js";
import type { Repairer, RubricWriter } from "../../pipeline/agents/types.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";

/** A copy of fx-treasury with one task slot and the given repair budget. */
function workspace(repairAttempts: number): string {
  const root = mkdtempSync(join(tmpdir(), "repair-budget-"));
  cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
  const card = join(root, "sources/fx-treasury/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 1").replace(/repair_attempts: \d+/, `repair_attempts: ${repairAttempts}`));
  return root;
}

/** Writes the real checks plus a goal check no trace can pass, so every verification fails. */
const plantingWriter: RubricWriter = {
  async writeChecks(ctx, task) {
    const t = await new DeterministicRubricWriter().writeChecks(ctx, task);
    const first = t.checks.goal[0]!;
    return { ...t, checks: { ...t.checks, goal: [...t.checks.goal, { ...first, id: "goal-impossible", kind: "action_executed", params: { operation: "no_such_operation" }, description: "an operation the world does not have" }] } };
  },
};

/** A repairer that always "repairs" without fixing anything, so the task fails again. */
function uselessRepairer(calls: number[]): Repairer {
  return {
    async repair(_ctx, task, _d, attempt) {
      calls.push(attempt);
      return { task: { ...task, title: `${task.title} (${attempt})` }, action: `retitled (${attempt})`, resume: "checked" };
    },
  };
}

/** Runs the graph up to calibrate (where the release rules start) with the given repairer. */
async function runToCalibrate(root: string, repairer: Repairer): Promise<BuildStateType> {
  // The build's own services (deterministic strategies, a real stage cache in the workspace), with
  // the rubric writer and repairer under test swapped in.
  const paths = { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated"), cache: join(root, "cache") };
  const svc = { ...makeServices(FoundryConfig.parse({}), paths, new Progress("silent"), undefined), rubricWriter: plantingWriter, repairer };
  const app = graph.compile({ checkpointer: new MemorySaver(), interruptBefore: ["calibrate"] });
  const config = { configurable: { thread_id: "t" }, context: svc as unknown as Record<string, unknown>, recursionLimit: 200 };
  await app.invoke({ domain: "fx-treasury", paths, seed: null, review: false }, config);
  return (await app.getState(config)).values as BuildStateType;
}

describe("repair rounds follow the domain card", () => {
  it("a card with repair_attempts: 1 gets exactly one repair round, then the task is dropped with its diagnosis", async () => {
    const calls: number[] = [];
    const state = await runToCalibrate(workspace(1), uselessRepairer(calls));
    expect(calls).toEqual([1]);
    const [r] = state.records;
    expect(r?.repairs.map((x) => x.action)).toEqual(["retitled (1)"]);
    expect(r?.status).toBe("dropped");
    expect(r?.reason).toMatch(/^golden_replay: the golden trace fails check goal-impossible: .* \(still failing after 1 repair attempt; the domain card allows 1\)$/);
  }, 180_000);
});
