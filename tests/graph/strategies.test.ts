import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { chooseStrategies } from "../../pipeline/build/strategies.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { demoConfig } from "../../pipeline/cli/commands/demo.js";

const config = (models: Record<string, string>) => resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models } });

describe("strategy per role", () => {
  it("is deterministic for every role by default", async () => {
    const s = chooseStrategies(config({}), null);
    expect(Object.values(s.names).every((n) => n === "deterministic")).toBe(true);
    expect((await s.designer.load()).constructor.name).toBe("DeterministicTaskDesigner");
    expect((await s.calibrator.load()).constructor.name).toBe("DeterministicCalibrator");
    // No model for the environment builder: a missing world.yaml is not drafted in the build.
    expect(s.worldDrafter).toBeNull();
  });

  it("refuses a model for a role that is deterministic by design, naming the role and the value", () => {
    try {
      chooseStrategies(config({ verifier: "openai:gpt-4.1" }), null);
      expect.unreachable();
    } catch (e) {
      expect(FoundryError.is(e) && e.code).toBe("STRATEGY_UNAVAILABLE");
      expect((e as FoundryError).location.path).toBe("models.verifier");
    }
  });

  it("refuses a user-sim model in the build instead of silently ignoring it", () => {
    expect(() => chooseStrategies(config({ "user-sim": "ollama:qwen3" }), null)).toThrow("user-sim takes part in agent evaluation");
  });

  it("asks the LLM runtime for a configured role's model and fails clearly when it has none", () => {
    expect(() => chooseStrategies(config({ solver: "openai:gpt-4.1" }), null)).toThrow("a model is configured for solver but the LLM runtime could not provide it");
    // The environment builder is a model role like the others (it drafts a missing world.yaml).
    expect(() => chooseStrategies(config({ "environment-builder": "openai:gpt-4.1" }), null)).toThrow("a model is configured for environment-builder but the LLM runtime could not provide it");
  });
});

describe("synth demo", () => {
  it("runs every role deterministically with the cards' seeds whatever the environment configures", async () => {
    const env = { FOUNDRY_MODEL: "openai:gpt-x", FOUNDRY_MODEL_SOLVER: "anthropic:claude-x", FOUNDRY_MODEL_USER_SIM: "ollama:qwen3", FOUNDRY_SEED: "99" };
    // What the demo used to run with: the environment's models (and no runtime here to serve them).
    expect(() => chooseStrategies(resolveConfig({ env, cwd: "/nonexistent" }), null)).toThrow(FoundryError);
    const c = demoConfig({ env, cwd: "/nonexistent" });
    expect([c.model, c.models, c.seed]).toEqual(["deterministic", {}, null]);
    const s = chooseStrategies(c, null);
    expect(Object.entries(s.names)).toEqual(Object.keys(s.names).map((role) => [role, "deterministic"]));
    expect(Object.keys(s.names).length).toBe(8);
    expect((await Promise.all([s.designer.load(), s.rubricWriter.load(), s.solver.load(), s.repairer.load()])).map((x) => x.constructor.name)).toEqual(["DeterministicTaskDesigner", "DeterministicRubricWriter", "DeterministicSolver", "DeterministicRepairer"]);
  });
});
