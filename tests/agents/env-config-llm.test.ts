import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { LlmEnvConfigWriter } from "../../pipeline/agents/environment-builder/env-config-llm.js";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState } from "../../pipeline/world/build-state.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { renderEnvConfig } from "../../pipeline/world/env-config/render-env-config.js";
import { EnvConfig, Task } from "../../pipeline/schemas/index.js";
import { readFileSync } from "node:fs";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer } from "../llm/scripted-server.js";

const WORLD = fileURLToPath(new URL("../fixtures/world/world.yaml", import.meta.url));
const TASK = Task.parse(JSON.parse(readFileSync(new URL("../fixtures/release/tasks/move-funds.json", import.meta.url), "utf8")));

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("the environment builder's llm strategy for environment configurations (ChatOpenAI over HTTP against a scripted server)", () => {
  it("writes the system prompt and state description from the documents; an answer naming a hidden column or dropping a precondition message is shown its problems and asked again", async () => {
    const world = compileWorld(loadWorld(WORLD, "world.yaml"));
    const state = buildBaseState(world.world, { seed: 7 });
    const base = renderEnvConfig({ world, state, task: TASK, sop: null, domainTitle: "Mini treasury" });
    const messages = base.tools.flatMap((t) => t.preconditions.map((p) => p.message));
    const good = {
      system_prompt: `You are the treasury desk's ledger system. Per clause PAY-2.1 a transfer needs the client's approval of its exact terms.\nRefusals: ${messages.join(" | ")}`,
      state_description: { ...base.state_description, notes: "Balances are in the account's currency; proposals are numbered PR-0001 onward." },
    };
    // The first answer describes the hidden column risk_score and quotes no refusal message.
    const leaky = structuredClone(good);
    leaky.system_prompt = "You are the ledger.";
    leaky.state_description.tables.find((t) => t.name === "accounts")!.columns.push({ name: "risk_score", meaning: "internal grade" });
    const answer = (id: string, a: unknown) => chat(null, { toolCalls: [{ id, name: "environment-builder", arguments: JSON.stringify(a) }] });
    server = await ScriptedServer.start([answer("c1", leaky), answer("c2", good)]);
    const runtime = createLlmRuntime(testConfig({ models: { "environment-builder": "openai:gpt-4.1" }, base_url: server.baseUrl, max_retries: 1 }), { cache: null, env: {}, sleep: async () => {} });
    try {
      const model = runtime.chatModel({ role: "environment-builder", stage: "env_config" })!;
      const writer = new LlmEnvConfigWriter({ model, native: true });
      const docs = [{ id: "payment-release-procedure", version: "1.0", title: "Payment release", kind: "procedure" as const, effective_from: "2026-01-01", effective_to: null, scope: {} as never, text: "PAY-2.1 A transfer needs the client's approval of its exact terms." }];
      const config = await writer.write(base, { world, state, documents: docs });
      expect(EnvConfig.parse(config)).toEqual({ ...base, strategy: "llm", system_prompt: good.system_prompt, state_description: good.state_description });
      expect(server.requests).toHaveLength(2);
      expect(server.requests[0]!.path).toBe("/v1/chat/completions");
      const retry = JSON.stringify(server.requests[1]!.body.messages);
      expect(retry).toMatch(/must describe exactly these tables and visible columns/);
      expect(retry).toMatch(/must quote the refusal message of execute_transfer\/reserve_floor word for word/);
      // The documents in force reach the model; the task's checks and plan never do.
      const first = JSON.stringify(server.requests[0]!.body.messages);
      expect(first).toContain("PAY-2.1 A transfer needs the client");
      expect(first).not.toContain(TASK.checks.goal[0]!.id);
      expect(first).not.toContain("reference_plan");
    } finally {
      runtime.close();
    }
  }, 60_000);
});
