import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { modelFor, parseModelFor, resolveConfig } from "../../pipeline/core/config.js";
import { FoundryError } from "../../pipeline/core/errors.js";

const dir = mkdtempSync(join(tmpdir(), "config-"));
const file = join(dir, "foundry.config.yaml");
writeFileSync(file, "model: openai:gpt-4.1\nconcurrency: 2\nmodels:\n  solver: anthropic:claude-x\n");

describe("configuration", () => {
  it("defaults to the deterministic strategy everywhere", () => {
    const c = resolveConfig({ env: {}, cwd: dir + "/none" });
    expect(c.model).toBe("deterministic");
    expect(modelFor(c, "user-sim")).toBe("deterministic");
  });
  it("layers flags > environment > config file > defaults", () => {
    const c = resolveConfig({ configFile: file, env: { FOUNDRY_CONCURRENCY: "6", FOUNDRY_MODEL_USER_SIM: "ollama:qwen3" }, flags: { concurrency: 8 } });
    expect(c.concurrency).toBe(8);
    expect(c.model).toBe("openai:gpt-4.1");
    expect(modelFor(c, "solver")).toBe("anthropic:claude-x");
    expect(modelFor(c, "user-sim")).toBe("ollama:qwen3");
    expect(resolveConfig({ configFile: file, env: { FOUNDRY_CONCURRENCY: "6" } }).concurrency).toBe(6);
  });
  it("quotes the bad value and says where it came from", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "model: gpt4\n");
    try {
      resolveConfig({ configFile: bad, env: {} });
      expect.unreachable();
    } catch (e) {
      expect(FoundryError.is(e)).toBe(true);
      const err = e as FoundryError;
      expect(err.code).toBe("CONFIG_INVALID");
      expect(err.location).toEqual({ file: bad, line: 1, path: "model" });
      expect(err.value).toBe("gpt4");
    }
    expect(() => resolveConfig({ env: { FOUNDRY_CONCURRENCY: "0" }, cwd: dir + "/none" })).toThrow(/>=1/);
  });
  it("parses --model-for and rejects unknown roles", () => {
    expect(parseModelFor(["user-sim=ollama:qwen3"])).toEqual({ "user-sim": "ollama:qwen3" });
    expect(() => parseModelFor(["judge=openai:x"])).toThrow(/ROLE one of/);
  });
});
