import { cpSync, existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { ScriptedServer } from "./scripted-server.js";

/** A missing API key is reported by the build before any model request and before any file is written. */
describe("the build's credential preflight", () => {
  const saved = { OPENAI_API_KEY: process.env.OPENAI_API_KEY, ANTHROPIC_API_KEY: process.env.ANTHROPIC_API_KEY };
  let server: ScriptedServer | null = null;
  beforeEach(() => {
    delete process.env.OPENAI_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
    else process.env[k] = v;
    await server?.close();
    server = null;
  });

  const workspace = () => {
    const root = mkdtempSync(join(tmpdir(), "preflight-"));
    cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
    return { root, paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") } };
  };
  const failure = async (p: Promise<unknown>): Promise<FoundryError> => {
    try {
      await p;
    } catch (e) {
      if (FoundryError.is(e)) return e;
      throw e;
    }
    throw new Error("expected the build to fail");
  };

  it("names the role and the env var of a provider whose key is missing; the configured server gets 0 requests and nothing is written", async () => {
    server = await ScriptedServer.start([]);
    const { root, paths } = workspace();
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "task-designer": "openai:gpt-4.1", solver: "anthropic:claude-sonnet-4-5" }, base_url: server.baseUrl } });
    const e = await failure(runBuild({ config, paths, progress: new Progress("silent") }));
    expect(e.code).toBe("LLM_AUTH");
    expect(e.message).toBe("ANTHROPIC_API_KEY is not set, needed by solver (anthropic:claude-sonnet-4-5): set the key, or base_url for a local OpenAI-compatible server");
    expect(e.location.path).toBe("models.solver");
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(root, "sop"))).toBe(false);
    expect(existsSync(join(root, "generated/fx-treasury"))).toBe(false);
  });

  it("reports every role missing a key at once", async () => {
    const { root, paths } = workspace();
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "task-designer": "openai:gpt-4.1", calibrator: "openai:gpt-4.1-mini", repairer: "anthropic:claude-sonnet-4-5" } } });
    const e = await failure(runBuild({ config, paths, progress: new Progress("silent") }));
    expect(e.code).toBe("LLM_AUTH");
    expect(e.message).toBe("OPENAI_API_KEY is not set, needed by task-designer (openai:gpt-4.1), calibrator (openai:gpt-4.1-mini); ANTHROPIC_API_KEY is not set, needed by repairer (anthropic:claude-sonnet-4-5): set the key, or base_url for a local OpenAI-compatible server");
    expect(existsSync(join(root, "sop"))).toBe(false);
  });
});
