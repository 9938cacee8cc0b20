import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { Task, Trace } from "../../pipeline/schemas/index.js";
import { FoundryError } from "../../pipeline/core/errors.js";
import { runAgentLoop, type AgentLoopResult, type LoopTool } from "../../pipeline/llm/agent-loop.js";
import { applyOverlay } from "../../pipeline/world/build-state.js";
import { Episode } from "../../pipeline/world/episode.js";
import { ScriptedCustomer } from "../../pipeline/world/customer-sim.js";
import { agentToolSpecs } from "../../pipeline/world/standard-tools.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import type { Difficulty } from "./panel.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";

/** System prompt of a model agent working a task (the llm solver and the model probes). */
export const AGENT_PROMPT = `You are a professional agent serving a customer. Work only through the tools. Read the
applicable documents (search_documents, read_document): follow the version in force on the task's
date and in scope for this customer, never a superseded or out-of-scope one. Follow the procedure's
steps in order. Ask the customer (ask_customer) for any detail only they know before you use it.
When a step needs the customer's approval, make the proposal with the tool that proposes it, then
call request_approval with the proposal id. Use wait when something is pending. Call finish when the
customer's request is complete.`;

/** Tools of the conversation itself, beside the world's. */
export const DIALOGUE_TOOLS: LoopTool[] = [
  { name: "ask_customer", description: "Say something to the customer and get their answer.", parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false } },
  { name: "request_approval", description: "Ask the customer to approve a proposal, by its id.", parameters: { type: "object", properties: { proposal_id: { type: "string" } }, required: ["proposal_id"], additionalProperties: false } },
  { name: "finish", description: "End the conversation: the request is complete (or cannot be done).", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"], additionalProperties: false } },
];

/** One episode of a model agent: its trace, whether it called finish, and the loop's figures. */
export interface ModelEpisode {
  trace: Trace;
  finished: boolean;
  loop: AgentLoopResult;
}

/**
 * Run a model agent on a task through the agent loop: the world's tools plus the dialogue tools,
 * the scripted customer answering, the episode recorded as a trace. `withReferencePlan` shows the
 * model the reference plan (the aided runs of a model probe).
 */
export async function runModelEpisode(
  ctx: DomainContext,
  task: Task,
  model: Pick<BaseChatModel, "bindTools">,
  options: { role: Trace["role"]; label: string; withReferencePlan?: boolean; maxNudges?: number },
): Promise<ModelEpisode> {
  const initial = task.initial_state.length > 0 ? applyOverlay(ctx.base, ctx.world, task.initial_state, `task ${task.id}`) : ctx.base;
  const episode = Episode.open(initial, ctx.world, { task, documents: ctx.documents, role: options.role, label: options.label, seed: ctx.card.generation.seed });
  try {
    const customer = new ScriptedCustomer(task, episode);
    customer.open();
    const plan = options.withReferencePlan ? `\nReference plan:\n${task.reference_plan.map((p) => `${p.step}. ${p.operation} ${JSON.stringify(p.args)}`).join("\n")}` : "";
    const loop = await runAgentLoop({
      model,
      tools: [...agentToolSpecs(compileWorld(ctx.world)), ...DIALOGUE_TOOLS],
      messages: [new SystemMessage(AGENT_PROMPT), new HumanMessage(`Date: ${task.as_of}. Customer ${task.customer_id} says: ${task.scenario.opening_request}${plan}`)],
      maxTurns: task.max_turns,
      ...(options.maxNudges !== undefined ? { maxNudges: options.maxNudges } : {}),
      execute: (call) => (call.name === "finish" ? { content: { ok: true }, done: true } : { content: runTool(episode, customer, call.name, call.args) }),
    });
    return { trace: episode.finish(), finished: loop.outcome === "done", loop };
  } finally {
    episode.close();
  }
}

/** One tool call on the episode: the dialogue tools through the scripted customer, the rest as world operations. */
function runTool(episode: Episode, customer: ScriptedCustomer, name: string, args: Record<string, unknown>): unknown {
  if (name === "ask_customer") return { customer: customer.answer(String(args.message ?? "")).reply.text };
  if (name === "request_approval") {
    const r = customer.approve(String(args.proposal_id ?? ""));
    return r.outcome ? { approved: r.outcome.status === "executed", result: r.outcome.result } : { approved: false, customer: r.reply?.text };
  }
  const outcome = episode.invoke({ name, args, actor: "agent" });
  if (outcome.status !== "executed") return { status: outcome.status, error: outcome.result, reason: outcome.reason };
  return outcome.proposal_id ? { proposal_id: outcome.proposal_id, result: outcome.result } : outcome.result;
}

/** A chat model that can be charged to a task and sampled apart per run (the runtime's RuntimeChatModel). */
export type ProbeModel = Pick<BaseChatModel, "bindTools"> & { forItem?(change: { item: string; variant: string }): Pick<BaseChatModel, "bindTools"> };

/**
 * A model probe on the agent loop: each run is a fresh episode. With a runtime model every run is
 * its own cache `variant`, so run 2 of k is sampled, not replayed from run 1.
 */
export function modelAgentProbe(name: string, ctx: DomainContext, model: ProbeModel): ModelProbe {
  return {
    name,
    run: async (task, { withReferencePlan, attempt }) => {
      const label = `${name}/${withReferencePlan ? "aided" : "unaided"}-${attempt}`;
      const m = typeof model.forItem === "function" ? model.forItem({ item: task.id, variant: label }) : model;
      return (await runModelEpisode(ctx, task, m, { role: "probe", label, withReferencePlan })).trace;
    },
  };
}

/**
 * A model-driven probe, when a model is configured: an agent run on the task `k` times without the
 * reference plan and `k` times with it. The foundry supplies `run`; validation only counts.
 */
export interface ModelProbe {
  name: string;
  /** One episode of the model on the task; `withReferencePlan` shows it the reference plan. */
  run(task: Task, options: { withReferencePlan: boolean; attempt: number }): Promise<Trace>;
}

/** What the model probe's solve rates say about a task. */
export interface ModelCalibration {
  probe: string;
  k: number;
  /** Share of runs without the plan that succeeded. */
  without_plan: number;
  /** Share of runs with the plan that succeeded. */
  with_plan: number;
  /** `too_easy`: solved every time without help; `unsolvable`: never solved even with the plan; else `keep`. */
  verdict: "keep" | "too_easy" | "unsolvable";
  reason: string;
}

/**
 * Run a model probe k times with and without the reference plan and apply the 0%/100% filter: a task
 * solved in 100% of the unaided runs is too easy; one solved in 0% of the aided runs is broken or
 * unsolvable. `solved` judges a trace (strict success by the task's checks).
 */
export async function calibrateModelProbe(probe: ModelProbe, task: Task, k: number, solved: (trace: Trace) => boolean): Promise<ModelCalibration> {
  if (!Number.isInteger(k) || k < 1) throw new FoundryError("USAGE", `Expected \`k\` to be a whole number from 1 and up, got \`${k}\``, { path: "k" }, k);
  const rate = async (withReferencePlan: boolean) => {
    let ok = 0;
    for (let attempt = 1; attempt <= k; attempt++) if (solved(await probe.run(task, { withReferencePlan, attempt }))) ok++;
    return ok / k;
  };
  const without_plan = await rate(false);
  const with_plan = await rate(true);
  const pct = (x: number) => `${Math.round(x * 100)}%`;
  const base = { probe: probe.name, k, without_plan, with_plan };
  if (without_plan === 1) return { ...base, verdict: "too_easy", reason: `${probe.name} solved all ${k} runs without the reference plan` };
  if (with_plan === 0) return { ...base, verdict: "unsolvable", reason: `${probe.name} solved none of ${k} runs even with the reference plan` };
  return { ...base, verdict: "keep", reason: `${probe.name} solved ${pct(without_plan)} without and ${pct(with_plan)} with the reference plan` };
}

/** How often a model agent solved a task in `runs` fresh runs without the reference plan. */
export interface ModelSolveRate {
  probe: string;
  runs: number;
  solved: number;
  rate: number;
  /** Per run, in order: whether its trace strictly passed every check. */
  results: boolean[];
}

/**
 * Run a model probe `runs` times on a task without the reference plan (each run its own episode and,
 * with a runtime model, its own sample) and count the runs `solved` accepts.
 */
export async function modelSolveRate(probe: ModelProbe, task: Task, runs: number, solved: (trace: Trace) => boolean): Promise<ModelSolveRate> {
  if (!Number.isInteger(runs) || runs < 1) throw new FoundryError("USAGE", `Expected \`runs\` to be a whole number from 1 and up, got \`${runs}\``, { path: "calibration.runs" }, runs);
  const results: boolean[] = [];
  for (let attempt = 1; attempt <= runs; attempt++) results.push(solved(await probe.run(task, { withReferencePlan: false, attempt })));
  const n = results.filter(Boolean).length;
  return { probe: probe.name, runs, solved: n, rate: n / runs, results };
}

/** The label of a solve rate strictly between 0 and 1: above 2/3 easy, from 1/2 medium, from 1/4 hard, below expert. */
export function difficultyFromSolveRate(rate: number): Difficulty {
  return rate > 2 / 3 ? "easy" : rate >= 1 / 2 ? "medium" : rate >= 1 / 4 ? "hard" : "expert";
}

/** What a solve rate decides: a task solved in 0% of the runs is not solvable, in 100% too easy; the rest get a label. */
export type SolveRateVerdict = { verdict: "not_solvable"; reason: string } | { verdict: "too_easy"; reason: string } | { verdict: "keep"; difficulty: Difficulty; reason: string };

/** The 0%/100% filter of the language-environment design on a model agent's solve rate, and the label of what passes it. */
export function solveRateVerdict(s: ModelSolveRate): SolveRateVerdict {
  const rate = `${s.probe} solved ${s.solved} of ${s.runs} runs (${Math.round(s.rate * 100)}%)`;
  if (s.solved === 0) return { verdict: "not_solvable", reason: `not solvable by the calibrator model: ${rate}` };
  if (s.solved === s.runs) return { verdict: "too_easy", reason: `too easy: ${rate}` };
  const difficulty = difficultyFromSolveRate(s.rate);
  return { verdict: "keep", difficulty, reason: `${rate}: ${difficulty}` };
}
