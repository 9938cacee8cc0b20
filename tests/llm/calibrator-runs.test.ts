import { AIMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { buildDomainContext } from "../../pipeline/build/load-context.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { LlmCalibrator } from "../../pipeline/agents/calibrator/llm.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { difficultyFromSolveRate } from "../../validation/probes/model-probe.js";
import { ScriptedModel } from "../graph/scripted-model.js";

describe("the llm calibrator's runs", () => {
  it("runs the model agent the domain card's calibration.runs times (default 4) and names the rate when it drops", async () => {
    const base = buildDomainContext("sources/fx-treasury", await extractDomainSop("sources/fx-treasury", {}));
    const designed = await new DeterministicTaskDesigner().design(base, 0, new RandomStream(base.card.generation.seed).fork("task-slot/0"));
    if (!designed.ok) throw new Error(designed.reason);
    const task = await new DeterministicRubricWriter().writeChecks(base, designed.task);
    const finishAtOnce = () => new ScriptedModel((_m, call) => new AIMessage({ content: "", tool_calls: [{ id: `c${call}`, name: "finish", args: { summary: "done" } }] }));

    const two = finishAtOnce();
    const ctx2 = { ...base, card: { ...base.card, calibration: { runs: 2 } } };
    const cal = new LlmCalibrator({ model: two, name: "scripted:m" });
    expect(await cal.calibrate(ctx2, task)).toEqual({
      verdict: "dropped",
      reason: "solvability: not solvable by the calibrator model: scripted:m solved 0 of 2 runs (0%)",
      probes: { "scripted:m/unaided-1": false, "scripted:m/unaided-2": false },
      solve_rate: { model: "scripted:m", runs: 2, solved: 0, rate: 0 },
    });
    expect(two.calls).toBe(2);
    expect(cal.settings(ctx2)).toEqual({ runs: 2 });

    const four = finishAtOnce();
    expect(base.card.calibration).toBeUndefined();
    await new LlmCalibrator({ model: four, name: "scripted:m" }).calibrate(base, task);
    expect(four.calls).toBe(4);
  }, 60_000);

  it("labels a solve rate: above 2/3 easy, from 1/2 medium, from 1/4 hard, below expert", () => {
    expect([0.9, 0.75, 2 / 3, 0.5, 0.25, 0.2, 0.1].map(difficultyFromSolveRate)).toEqual(["easy", "easy", "medium", "medium", "hard", "expert", "expert"]);
  });
});
