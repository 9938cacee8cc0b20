import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { resumeBuild, runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { WorldReview } from "../../pipeline/schemas/world-review.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";

// A domain folder holding only its card and documents: the build drafts its world.yaml in the graph
// with the environment builder's llm strategy (real ChatOpenAI over HTTP, scripted server).
const FIXTURE = fileURLToPath(new URL("../fixtures/draft/mooring-desk", import.meta.url));
const GOOD = readFileSync(fileURLToPath(new URL("../fixtures/draft/edited-world.yaml", import.meta.url)), "utf8");
const TYPO = GOOD.replace("where: { departed: false }", "where: { deprted: false }");
const draftReply = (yaml: string) => chat(null, { toolCalls: [{ id: "call_1", name: "environment-builder", arguments: JSON.stringify({ world_yaml: yaml }) }] });

const lastText = (r: SeenRequest) => String((r.body.messages as Array<{ content: unknown }>).at(-1)?.content ?? "");
/** The environment builder's other call in a build: each released task's environment configuration (collect); answered with the world model's own drafts. */
const isEnvConfig = (r: SeenRequest) => lastText(r).includes("Draft state description:");
function envConfigEcho(r: SeenRequest): ServerReply {
  const text = lastText(r);
  const prompt = /Draft system prompt \(rendered from the world model\):\n([\s\S]*?)\n\nTools \(/.exec(text)![1]!;
  const description = JSON.parse(/Draft state description:\n([\s\S]*?)\n\nWrite the system prompt/.exec(text)![1]!) as unknown;
  return chat(null, { toolCalls: [{ id: "call_env", name: "environment-builder", arguments: JSON.stringify({ system_prompt: prompt, state_description: description }) }] });
}
/** A server playing `drafts` to the drafting calls and echoing the configuration calls; `drafting()` lists the drafting requests seen. */
async function builderServer(drafts: ServerReply[]): Promise<ScriptedServer & { drafting(): SeenRequest[] }> {
  let n = 0;
  const server = await ScriptedServer.start((r) => (isEnvConfig(r) ? envConfigEcho(r) : (drafts[n++] ?? { status: 599, body: { error: { message: "draft script exhausted" } } })));
  return Object.assign(server, { drafting: () => server.requests.filter((r) => !isEnvConfig(r)) });
}

let servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

function workspace(): { root: string; world: string; paths: { sources: string; sop: string; generated: string } } {
  const root = mkdtempSync(join(tmpdir(), "draft-in-build-"));
  cpSync(FIXTURE, join(root, "sources", "mooring-desk"), { recursive: true });
  expect(existsSync(join(root, "sources", "mooring-desk", "world.yaml"))).toBe(false);
  return { root, world: join(root, "sources", "mooring-desk", "world.yaml"), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") } };
}

const drafting = (baseUrl: string) => resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "environment-builder": "openai:gpt-4.1" }, base_url: baseUrl, max_retries: 0 } });
const silent = new Progress("silent");

describe("a domain without world.yaml in the build", () => {
  it("with no model for the environment builder, the build stops before any work and says how to draft one", async () => {
    const { world, paths } = workspace();
    const err = await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths, progress: silent }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "WORLD_MISSING", location: { file: world } });
    expect((err as Error).message).toBe(
      `the domain has no world.yaml. Draft it from the documents with \`synth draft-world mooring-desk\` (deterministic: from the tool manuals; complete what its review list ${join(paths.sop, "mooring-desk", "world-review.json")} names), or configure a model for the environment-builder role (FOUNDRY_MODEL_ENVIRONMENT_BUILDER=provider:model, or --model-for environment-builder=provider:model) and the build drafts it`,
    );
    expect(existsSync(world)).toBe(false);
    expect(existsSync(join(paths.generated, "mooring-desk"))).toBe(false);
  }, 60_000);

  it("with a model, the draft_world stage writes it (an invalid first draft corrected through its checks), the domain builds, and a rebuild never redrafts", async () => {
    const { world, paths } = workspace();
    const server = await builderServer([draftReply(TYPO), draftReply(GOOD)]);
    servers.push(server);
    const first = await runBuild({ config: drafting(server.baseUrl), paths, progress: silent });
    // Two drafts: the misspelt column went back to the model with the loader's words, the second passed.
    expect(server.drafting()).toHaveLength(2);
    expect(JSON.stringify(server.drafting()[1]!.body.messages)).toContain("deprted");
    // Then one environment configuration per released task, written by the same role's model (tasks
    // of one business date ask the same question: the response cache answers the repeats).
    const configs = readdirSync(join(paths.generated, "mooring-desk", "env-configs")).filter((f) => f.endsWith(".json"));
    expect(configs).toHaveLength(first.domains[0]!.released);
    expect(server.requests.length - 2).toBeGreaterThanOrEqual(1);
    for (const c of configs) expect(JSON.parse(readFileSync(join(paths.generated, "mooring-desk", "env-configs", c), "utf8")).strategy).toBe("llm");
    expect(readFileSync(world, "utf8")).toBe(GOOD);
    const review = WorldReview.parse(JSON.parse(readFileSync(join(paths.sop, "mooring-desk", "world-review.json"), "utf8")));
    expect(review).toMatchObject({ domain: "mooring-desk", strategy: "llm", model: "openai:gpt-4.1", world_written: true, llm: { rounds: 2, passed: true, last_errors: [] } });
    expect(first.domains[0]!.released).toBeGreaterThanOrEqual(2);
    const report = JSON.parse(readFileSync(join(paths.generated, "mooring-desk", "report.json"), "utf8")) as { stages: Array<{ stage: string }>; strategies: Record<string, string> };
    expect(report.stages.map((s) => s.stage).slice(0, 2)).toEqual(["draft_world", "ingest"]);
    expect(report.strategies["environment-builder"]).toMatch(/^openai:gpt-4\.1 \(/);
    // The world exists now: the next build reads it and asks the model nothing (the configurations' answers are cached).
    const asked = server.requests.length;
    const again = await runBuild({ config: drafting(server.baseUrl), paths, progress: silent });
    expect(server.requests).toHaveLength(asked);
    expect(again.domains[0]!.released).toBe(first.domains[0]!.released);
  }, 240_000);

  it("a draft that never passes its checks stops the build naming the review list; nothing is written as world.yaml", async () => {
    const { world, paths } = workspace();
    const server = await ScriptedServer.start([draftReply(TYPO), draftReply(TYPO), draftReply(TYPO)]);
    servers.push(server);
    const err = await runBuild({ config: drafting(server.baseUrl), paths, progress: silent }).catch((e: unknown) => e);
    const list = join(paths.sop, "mooring-desk", "world-review.json");
    expect(err).toMatchObject({ code: "WORLD_DRAFT_FAILED", location: { file: list } });
    expect((err as Error).message).toBe(`the environment builder's draft of ${world} did not pass its checks after 3 round(s); nothing was written as world.yaml. Its last draft and problems are in ${list}`);
    expect(existsSync(world)).toBe(false);
    expect(JSON.parse(readFileSync(list, "utf8")).llm.last_draft).toBe(TYPO);
  }, 120_000);

  it("with --review, the build pauses on the drafted world before anything reads it, and goes on from the person's edit", async () => {
    const { world, paths } = workspace();
    const server = await builderServer([draftReply(GOOD)]);
    servers.push(server);
    const config = drafting(server.baseUrl);
    const first = await runBuild({ config, paths, progress: silent, review: true });
    expect(first.domains[0]!.paused).toEqual({
      stage: "review_world",
      message: `review and edit the drafted ${world} (its review list ${join(paths.sop, "mooring-desk", "world-review.json")} says what the draft could not derive, or what to check), then approve`,
    });
    expect(existsSync(join(paths.generated, "mooring-desk"))).toBe(false);
    const line = GOOD.split("\n").find((l) => /^\s+description: /.test(l))!;
    writeFileSync(world, GOOD.replace(line, `${line.replace(/\.?$/, "")} (reviewed).`));
    const gen = { ...paths, generated: paths.generated };
    let next = await resumeBuild({ config, generated: gen.generated, progress: silent, approve: true });
    const stages: string[] = ["review_world"];
    while (next.domains[0]!.paused) {
      stages.push(next.domains[0]!.paused!.stage);
      next = await resumeBuild({ config, generated: gen.generated, progress: silent, approve: true });
    }
    expect(stages).toEqual(["review_world", "review_sop", "review_environment"]);
    expect(server.drafting()).toHaveLength(1);
    expect(readFileSync(join(paths.generated, "mooring-desk", "world.json"), "utf8")).toContain("(reviewed).");
    expect(next.domains[0]!.released).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
