import { cpSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { checkDomain } from "../../pipeline/sources/check-sources.js";
import { chooseStrategies } from "../../pipeline/build/strategies.js";

const FIXTURE = "tests/fixtures/simulated/appliance-repairs";

function workspace(): { root: string; paths: { sources: string; sop: string; generated: string } } {
  const root = mkdtempSync(join(tmpdir(), "simulated-only-"));
  cpSync(FIXTURE, join(root, "sources/appliance-repairs"), { recursive: true });
  return { root, paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") } };
}

describe("a simulated-only domain (environment: simulated, no world.yaml)", () => {
  it("passes check-sources without a world.yaml, and a world.yaml beside `environment: simulated` is an error", () => {
    expect(checkDomain(FIXTURE).issues).toEqual([]);
    const { paths } = workspace();
    writeFileSync(join(paths.sources, "appliance-repairs/world.yaml"), "domain: appliance-repairs\n");
    expect(checkDomain(join(paths.sources, "appliance-repairs")).issues.map((i) => i.code)).toEqual(["SIMULATED_WITH_WORLD"]);
  });

  it("offline, the build refuses it naming every role that needs a model, and drafts no world", async () => {
    const { paths } = workspace();
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: {} });
    await expect(runBuild({ config, paths, progress: new Progress("silent") })).rejects.toThrow(
      "appliance-repairs is a simulated-only domain (environment: simulated, no world.yaml): building it needs a model for environment-builder, task-designer, solver, repairer, calibrator, env-sim",
    );
    expect(existsSync(join(paths.sources, "appliance-repairs/world.yaml"))).toBe(false);
    expect(existsSync(join(paths.generated, "appliance-repairs"))).toBe(false);
  }, 60_000);

  it("names only the roles still missing a model", async () => {
    const { paths } = workspace();
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "task-designer": "openai:gpt-4.1", solver: "openai:gpt-4.1", "env-sim": "openai:gpt-4.1" }, base_url: "http://127.0.0.1:9/v1" } });
    await expect(runBuild({ config, paths, progress: new Progress("silent") })).rejects.toThrow("building it needs a model for environment-builder, repairer, calibrator (configure");
  }, 60_000);

  it("an env-sim model is refused in a build with no simulated-only domain (it would be ignored)", () => {
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "env-sim": "openai:gpt-4.1" } } });
    expect(() => chooseStrategies(config, null)).toThrow("env-sim takes part in agent evaluation (and in building simulated-only domains, none of which this build has)");
  });
});
