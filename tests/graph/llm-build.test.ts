import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { Task } from "../../pipeline/schemas/index.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { buildDomainContext } from "../../pipeline/build/load-context.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { DeterministicRubricWriter } from "../../pipeline/agents/rubric-writer/deterministic.js";
import { LlmSolver } from "../../pipeline/agents/solver/llm.js";
import { LlmRepairer } from "../../pipeline/agents/repairer/llm.js";
import { askText } from "../../pipeline/agents/plan/actions.js";
import { verifyTask } from "../../pipeline/build/verify-task.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { ScriptedModel, text } from "./scripted-model.js";
import { modelFailureSummary } from "../../pipeline/llm/failure-reason.js";

function workspace(slots: number): string {
  const root = mkdtempSync(join(tmpdir(), "llm-build-"));
  cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
  const card = join(root, "sources/fx-treasury/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, `task_count: ${slots}`));
  return root;
}

describe("the graph with llm strategies (scripted models, offline)", () => {
  it("designs with the task-designer model (a malformed answer is retried) and writes checks with the rubric model", async () => {
    const root = workspace(2);
    const designer = new ScriptedModel((messages) => {
      // The first answer of each design is cut off mid-JSON; the structured call shows the error and asks again.
      if (!messages.some((m) => m._getType() === "ai")) return new AIMessage('{"units": [0], "persona": "Finance lead');
      // Two units of different procedures: a release and whatever else comes first (rich enough that
      // five violation traces apply); the opening request names both records.
      const lines = text(messages.find((m) => m._getType() === "human")).split("\n").filter((l) => /^\d+\. /.test(l));
      const release = lines.find((l) => / Release an outgoing payment /.test(l)) ?? (lines[0] as string);
      const other = lines.find((l) => !l.includes(release.split(" — ")[0]!.replace(/^\d+\. /, ""))) ?? release;
      const pick = [...new Set([release, other])];
      const units = pick.map((l) => Number(l.split(".")[0]));
      const asks = pick
        .map((l) => {
          const [title, subject] = l.replace(/^\d+\. /, "").split(" — ") as [string, string];
          return `${title.charAt(0).toLowerCase()}${title.slice(1)} for ${subject.split(" ").pop()}`;
        })
        .join(", and then ");
      return new AIMessage(JSON.stringify({ units, persona: "Finance lead who speaks in short sentences.", opening_request: `Good morning, this is customer number ${/"client_id":"([^"]+)"/.exec(text(messages.find((m) => m._getType() === "human")))?.[1]}. Please ${asks}.` }));
    });
    const rubric = new ScriptedModel((messages) => {
      const human = text(messages.find((m) => m._getType() === "human"));
      const draft = human.slice(human.indexOf("Draft checks:\n") + "Draft checks:\n".length);
      return new AIMessage(`\`\`\`json\n{"checks": ${draft}}\n\`\`\``);
    });
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "task-designer": "scripted:designer", "rubric-writer": "scripted:rubric" }, max_retries: 1 } });
    const outcome = await runBuild({
      config,
      paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") },
      progress: new Progress("silent"),
      modelFactory: (ref) => (ref.model === "designer" ? designer : ref.model === "rubric" ? rubric : undefined),
    });
    expect(outcome.domains[0]!.records.map((r) => r.reason)).toEqual([null, null]);
    expect(outcome.domains[0]!.released).toBe(2);
    expect(designer.calls).toBe(4); // two slots, each: malformed, then valid
    expect(rubric.calls).toBe(2);
    const out = join(root, "generated/fx-treasury");
    const files = readdirSync(join(out, "tasks")).sort();
    expect(files).toEqual(["fx-treasury-001.json", "fx-treasury-002.json"]);
    const task = Task.parse(JSON.parse(readFileSync(join(out, "tasks", files[0]!), "utf8")));
    expect(task.scenario.persona).toBe("Finance lead who speaks in short sentences.");
    expect(task.scenario.opening_request).toMatch(/^Good morning, this is customer number CL-10\d\. Please release an outgoing payment for PAY-\d+, and then /);
    const report = JSON.parse(readFileSync(join(out, "report.json"), "utf8")) as { strategies: Record<string, string> };
    expect(report.strategies).toMatchObject({ "task-designer": "scripted:designer (temperature 0, structured_output native)", "rubric-writer": "scripted:rubric (temperature 0, structured_output native)", solver: "deterministic" });
  }, 180_000);

  it("a slot whose model fails persistently is dropped with its class, task, stage and model; the others are released", async () => {
    const root = workspace(2);
    const designer = new ScriptedModel((messages) => {
      const human = text(messages.find((m) => m._getType() === "human"));
      // Slot 1's server answers 500 every time; slot 2 gets a good design.
      if (human.includes("task id fx-treasury-001")) throw Object.assign(new Error("upstream exploded"), { status: 500 });
      const lines = human.split("\n").filter((l) => /^\d+\. /.test(l));
      const release = lines.find((l) => / Release an outgoing payment /.test(l)) ?? (lines[0] as string);
      const other = lines.find((l) => !l.includes(release.split(" — ")[0]!.replace(/^\d+\. /, ""))) ?? release;
      const pick = [...new Set([release, other])];
      const asks = pick.map((l) => { const [title, subject] = l.replace(/^\d+\. /, "").split(" — ") as [string, string]; return `${title.charAt(0).toLowerCase()}${title.slice(1)} for ${subject.split(" ").pop()}`; }).join(", and then ");
      return new AIMessage(JSON.stringify({ units: pick.map((l) => Number(l.split(".")[0])), persona: "Finance lead who speaks in short sentences.", opening_request: `Good morning, this is customer number ${/"client_id":"([^"]+)"/.exec(human)?.[1]}. Please ${asks}.` }));
    });
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "task-designer": "scripted:designer" }, max_retries: 1 } });
    const outcome = await runBuild({ config, paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent"), modelFactory: (ref) => (ref.model === "designer" ? designer : undefined) });
    const records = outcome.domains[0]!.records;
    expect(records.map((r) => r.status)).toEqual(["dropped", "verified"]);
    expect(records[0]!.reason).toBe("design: model failure (server_error) in stage design_task for task fx-treasury-001 on scripted:designer: scripted:designer failed for stage design_task, item fx-treasury-001 after 2 attempts: server_error (HTTP 500): upstream exploded");
    expect(outcome.domains[0]!.released).toBe(1);
    expect(designer.calls).toBe(3); // slot 1: max_retries + 1 = 2 requests; slot 2: 1
    expect(modelFailureSummary(records.map((r) => ({ domain: "fx-treasury", item: r.id ?? `slot-${r.slot + 1}`, reason: r.reason })))).toEqual([
      "1 item(s) dropped for model failures:",
      "  1 × model failure (server_error) in stage design_task on scripted:designer: scripted:designer failed for stage design_task after 2 attempts: server_error (HTTP 500): upstream exploded (fx-treasury/slot-1)",
    ]);
  }, 180_000);

  it("the llm solver works a task through the agent's tools and its trace passes the gates; a model that never finishes is reported", async () => {
    const sop = await extractDomainSop("sources/fx-treasury", {});
    const ctx = buildDomainContext("sources/fx-treasury", sop);
    const designed = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(ctx.card.generation.seed).fork("task-slot/0"));
    if (!designed.ok) throw new Error(designed.reason);
    const task = await new DeterministicRubricWriter().writeChecks(ctx, designed.task);
    const plan = task.reference_plan;
    const model = new ScriptedModel((messages, call) => {
      const step = plan[call];
      if (!step) return new AIMessage({ content: "", tool_calls: [{ id: `c${call}`, name: "finish", args: { summary: "done" } }] });
      const last = [...messages].reverse().find((m) => m instanceof ToolMessage);
      const lastResult = last ? (JSON.parse(text(last)) as { proposal_id?: string }) : {};
      const [name, args] =
        step.operation === "ask" ? ["ask_customer", { message: askText(String(step.args.topic)) }]
        : step.operation === "approve" ? ["request_approval", { proposal_id: lastResult.proposal_id }]
        : [step.operation, step.args];
      return new AIMessage({ content: "", tool_calls: [{ id: `c${call}`, name: name as string, args: args as Record<string, unknown> }] });
    });
    const solved = await new LlmSolver({ model }).solve(ctx, task);
    if (!solved.ok) throw new Error(solved.reason);
    expect((await verifyTask(ctx, task, solved.trace)).diagnosis).toBeNull();
    expect(model.calls).toBe(plan.length + 1);

    const chatty = new ScriptedModel(() => new AIMessage("I will look into it."));
    expect(await new LlmSolver({ model: chatty }).solve(ctx, task)).toEqual({ ok: false, reason: "the model answered without calling a tool 3 time(s): I will look into it." });
    expect(chatty.calls).toBe(3); // told twice (the bounded nudges), then given up
  }, 120_000);

  it("the llm repairer applies the model's decision from the diagnosis", async () => {
    const sop = await extractDomainSop("sources/fx-treasury", {});
    const ctx = buildDomainContext("sources/fx-treasury", sop);
    const designed = await new DeterministicTaskDesigner().design(ctx, 1, new RandomStream(ctx.card.generation.seed).fork("task-slot/1"));
    if (!designed.ok) throw new Error(designed.reason);
    const task = await new DeterministicRubricWriter().writeChecks(ctx, designed.task);
    const target = task.checks.protection[0]!.id;
    const model = new ScriptedModel(() => new AIMessage(JSON.stringify({ action: "remove_check", check: target, explanation: "The golden trace follows the procedure and fails it." })));
    const repaired = await new LlmRepairer({ model }).repair(ctx, task, { gate: "golden_replay", check: target, event: 3, detail: "fails" }, 1, null);
    // The repairer is shown the failing gate's diagnosis and whether a golden trace exists.
    const shown = text(model.seen[0]?.find((m) => m._getType() === "human"));
    expect(shown).toContain('Failing gate\'s diagnosis: {"gate":"golden_replay","check":"' + target + '","event":3,"detail":"fails"}');
    expect(shown).toContain("Golden trace:\nnone: the task has not been solved");
    expect(repaired?.resume).toBe("checked");
    expect(repaired?.task.checks.protection.map((c) => c.id)).not.toContain(target);
    const refuse = new ScriptedModel(() => new AIMessage(JSON.stringify({ action: "drop_task", check: null, explanation: "A failing goal cannot be repaired." })));
    expect(await new LlmRepairer({ model: refuse }).repair(ctx, task, { gate: "golden_replay", check: task.checks.goal[0]!.id, event: null, detail: "goal fails" }, 1, null)).toBeNull();
  }, 120_000);
});
