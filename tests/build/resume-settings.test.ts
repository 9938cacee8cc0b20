import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { resumeBuild } from "../../pipeline/build/run-build.js";
import { RunIndex } from "../../pipeline/build/run-index.js";
import { resumeConfig } from "../../pipeline/build/resume-settings.js";
import { Progress } from "../../pipeline/build/progress.js";

async function caught(p: Promise<unknown>): Promise<FoundryError> {
  try {
    await p;
  } catch (e) {
    if (FoundryError.is(e)) return e;
    throw e;
  }
  throw new Error("expected a FoundryError");
}

describe("synth resume keeps the run's settings", () => {
  const started = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { model: "openai:gpt-4.1", seed: 46, models: { "environment-builder": "deterministic", verifier: "deterministic", calibrator: "deterministic", "user-sim": "deterministic", "env-sim": "deterministic" } } });

  it("continues on the stored configuration, whatever today's configuration says", () => {
    expect(resumeConfig("run-1", started, {}, "resume")).toEqual(started);
    expect(resumeConfig("run-1", started, { seed: 46, model: "openai:gpt-4.1" }, "resume")).toEqual(started);
  });

  it("refuses a conflicting setting, naming it and both values, before anything runs", async () => {
    const generated = mkdtempSync(join(tmpdir(), "resume-"));
    new RunIndex(join(generated, "runs")).put({ run: "run-cafe0001", domains: ["fx-treasury"], paths: { sources: "sources", sop: join(generated, "sop"), generated, cache: join(generated, "cache") }, seed: 46, review: false, status: "failed", config: started });
    const e = await caught(resumeBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), given: { models: { solver: "deterministic" } }, run: "run-cafe0001", generated, progress: new Progress("silent") }));
    expect([e.code, e.location.path, e.message]).toEqual([
      "RESUME_SETTINGS_CONFLICT",
      "models.solver",
      'run run-cafe0001 was started with models.solver = "openai:gpt-4.1"; the resume asks for "deterministic". Resume without it, or start a new build',
    ]);
    const seed = await caught(resumeBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), given: { seed: 7 }, run: "run-cafe0001", generated, progress: new Progress("silent") }));
    expect([seed.code, seed.message]).toEqual(["RESUME_SETTINGS_CONFLICT", "run run-cafe0001 was started with seed = 46; the resume asks for 7. Resume without it, or start a new build"]);
  });
});
