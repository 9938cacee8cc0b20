import { afterEach, describe, expect, it } from "vitest";
import type { AcceptanceCheck } from "../../pipeline/schemas/index.js";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import type { RuntimeChatModel } from "../../pipeline/llm/runtime-chat-model.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { buildDomainContext } from "../../pipeline/build/load-context.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { LlmRubricWriter } from "../../pipeline/agents/rubric-writer/llm.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { testConfig } from "./helpers.js";
import { chat, ScriptedServer } from "./scripted-server.js";

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe("the rubric writer's llm strategy over HTTP (real ChatOpenAI, scripted server)", () => {
  it("writes the model's checks, not the draft, when the model's answer differs from it", async () => {
    const ctx = buildDomainContext("sources/fx-treasury", await extractDomainSop("sources/fx-treasury", {}));
    const designed = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(ctx.card.generation.seed).fork("task-slot/0"));
    if (!designed.ok) throw new Error(designed.reason);
    const draft = await new DeterministicRubricWriter().writeChecks(ctx, designed.task);
    const draftChecks = [...draft.checks.goal, ...draft.checks.process, ...draft.checks.protection];
    // The model's review: the last protection check removed, the first goal check reworded.
    const protection = draft.checks.protection;
    expect(protection.length).toBeGreaterThan(1);
    const dropped = protection.at(-1) as AcceptanceCheck;
    const answer = draftChecks.filter((c) => c.id !== dropped.id).map((c, i) => (i === 0 ? { ...c, description: "The payment the customer asked about ends in the state the customer asked for." } : c));
    const server = await ScriptedServer.start([chat(null, { toolCalls: [{ id: "call_1", name: "rubric-writer", arguments: JSON.stringify({ checks: answer }) }] })]);
    servers.push(server);
    const config = testConfig({ models: { "rubric-writer": "openai:gpt-4.1" }, base_url: server.baseUrl, max_retries: 0 });
    const runtime = createLlmRuntime(config, { cache: null, env: {} });
    const model = runtime.chatModel({ role: "rubric-writer", stage: "write_checks" }) as RuntimeChatModel;
    const written = await new LlmRubricWriter({ model, native: true }).writeChecks(ctx, designed.task);
    expect(server.requests).toHaveLength(1);
    // The draft travelled in the prompt; what came back is what is written.
    const user = (server.requests[0]!.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;
    expect(user).toContain(`Draft checks:\n${JSON.stringify(draftChecks)}`);
    const byGroup = (g: AcceptanceCheck["group"]) => answer.filter((c) => c.group === g);
    expect(written.checks).toEqual({ goal: byGroup("goal"), process: byGroup("process"), protection: byGroup("protection") });
    expect(written.checks.protection.map((c) => c.id)).not.toContain(dropped.id);
    expect(written.checks.goal[0]!.description).toBe("The payment the customer asked about ends in the state the customer asked for.");
    expect(written.checks).not.toEqual(draft.checks);
    runtime.close();
  }, 60_000);
});
