import { cpSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import type { RuntimeChatModel } from "../../pipeline/llm/runtime-chat-model.js";
import { LlmWorldDrafter } from "../../pipeline/agents/environment-builder/llm.js";
import { writeDraft } from "../../pipeline/agents/environment-builder/write-draft.js";
import { WorldReview } from "../../pipeline/schemas/world-review.js";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { testConfig } from "./helpers.js";
import { chat, ScriptedServer, type SeenRequest } from "./scripted-server.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/draft/mooring-desk", import.meta.url));
const GOOD = readFileSync(fileURLToPath(new URL("../fixtures/draft/edited-world.yaml", import.meta.url)), "utf8");
const NO_ROWS = readFileSync(fileURLToPath(new URL("../fixtures/draft/expected/world.yaml", import.meta.url)), "utf8");
const TYPO = GOOD.replace("where: { departed: false }", "where: { deprted: false }");

const draftReply = (yaml: string) => chat(null, { toolCalls: [{ id: "call_1", name: "environment-builder", arguments: JSON.stringify({ world_yaml: yaml }) }] });
const userText = (r: SeenRequest) => (r.body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function drafter(replies: ReturnType<typeof chat>[]) {
  const server = await ScriptedServer.start(replies);
  servers.push(server);
  const runtime = createLlmRuntime(testConfig({ models: { "environment-builder": "openai:gpt-4.1" }, base_url: server.baseUrl, max_retries: 0 }), { cache: null, env: {} });
  const model = runtime.chatModel({ role: "environment-builder", stage: "draft-world" }) as RuntimeChatModel;
  return { server, runtime, drafter: new LlmWorldDrafter({ model, native: true, rounds: 3, modelName: "openai:gpt-4.1" }) };
}

function workspace(): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "llm-draft-"));
  const dir = join(root, "sources", "mooring-desk");
  cpSync(FIXTURE, dir, { recursive: true });
  return { root, dir };
}

describe("the environment builder's llm strategy over HTTP (real ChatOpenAI, scripted server)", () => {
  it("an invalid first draft is corrected through the feedback loop (checks, then feasibility) and the domain builds", async () => {
    const { root, dir } = workspace();
    const { server, runtime, drafter: d } = await drafter([draftReply(TYPO), draftReply(NO_ROWS), draftReply(GOOD)]);
    const outcome = await d.draft(dir);
    runtime.close();
    expect(server.requests).toHaveLength(3);
    // The first request carries the documents and the deterministic draft to start from.
    expect(userText(server.requests[0]!)).toContain("A deterministic draft (complete it; its review items say what it lacks):\n# Drafted by synth draft-world");
    // The second carries the first draft's problem: the misspelt column, as the world loader words it, with its line.
    const second = userText(server.requests[1]!);
    expect(second).toContain(`Your previous world.yaml:\n${TYPO}`);
    expect(second).toMatch(/- world\.yaml:\d+ operations\[5\]\.preconditions\[0\]\.sql: \[WORLD_SQL\] .*deprted/);
    // The third: the second draft was valid but designs nothing; the survey's findings, workflow by workflow.
    const third = userText(server.requests[2]!);
    expect(third).toContain("- workflow cancel-booking has no feasible unit because no row of bookings (the table the workflow is about) belongs to a row of owners");
    expect(third).toContain("- workflow confirm-booking has no feasible unit because");
    expect(outcome.yaml).toBe(GOOD);
    expect(outcome.review.llm).toEqual({ rounds: 3, passed: true, last_errors: [], last_draft: null });
    expect(outcome.review.items).toEqual([]);
    writeDraft(dir, join(root, "sop"), outcome);
    expect(readFileSync(join(dir, "world.yaml"), "utf8")).toBe(GOOD);
    expect(WorldReview.parse(JSON.parse(readFileSync(join(root, "sop", "mooring-desk", "world-review.json"), "utf8"))).strategy).toBe("llm");
    const built = await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
    expect(built.domains[0]!.released).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it("a draft that never passes is not written as world.yaml: the review list keeps it with its last problems", async () => {
    const { root, dir } = workspace();
    const { server, runtime, drafter: d } = await drafter([draftReply(TYPO), draftReply(TYPO), draftReply(TYPO)]);
    const outcome = await d.draft(dir);
    runtime.close();
    expect(server.requests).toHaveLength(3);
    expect(outcome.yaml).toBeNull();
    expect(outcome.review.world_written).toBe(false);
    expect(outcome.review.llm).toMatchObject({ rounds: 3, passed: false, last_draft: TYPO });
    expect(outcome.review.llm!.last_errors).toHaveLength(1);
    expect(outcome.review.llm!.last_errors[0]).toContain("deprted");
    expect(outcome.review.items.map((i) => [i.id, i.kind])).toEqual([["W001", "model_errors"]]);
    const written = writeDraft(dir, join(root, "sop"), outcome);
    expect(written.world).toBeNull();
    expect(existsSync(join(dir, "world.yaml"))).toBe(false);
    expect(JSON.parse(readFileSync(written.review, "utf8")).llm.last_draft).toBe(TYPO);
  }, 60_000);
});
