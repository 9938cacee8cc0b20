import type { Task, Trace } from "../schemas/index.js";
import type { EpisodeResult } from "../schemas/evaluation-result.js";
import { createCheckContext } from "../world/check-context.js";
import { runChecks, strictSuccess } from "../../validation/checks/index.js";
import { initialStateFor } from "../../validation/initial-states.js";
import { auditTranscript } from "./customer/audit-transcript.js";
import { countCalls } from "./call-counts.js";
import type { EvalDomain } from "./load-release.js";

/** What judging cannot read off the trace: who ran it, how, how it ended, where its file is. */
export type EpisodeMeta = Pick<EpisodeResult, "agent" | "user_sim" | "condition" | "run" | "seed" | "status" | "error" | "end" | "turns" | "usage" | "trace_file" | "trace_sha256">;

/** Everything one episode's result is computed from. */
export interface JudgeInput {
  task: Task;
  trace: Trace;
  /** The task's golden trace (its calls are the efficiency baseline). */
  golden: Trace;
  meta: EpisodeMeta;
  /** The task's domain in the release (world and base state the checks read s0 from). */
  domain: Pick<EvalDomain, "id" | "card" | "world" | "base">;
}

/**
 * One episode's result: the release's checks re-run on the trace with validation's check runner,
 * strict success and its parts, calls by kind for the trace and the golden trace, faults injected,
 * and the deterministic audit of the customer's transcript. Pure: the same input gives the same
 * result, so `synth score` re-judges stored traces to exactly what `synth evaluate` wrote.
 */
export function judgeEpisode(input: JudgeInput, env: "executable" | "hybrid" = "executable"): EpisodeResult {
  const { task, trace, golden, meta, domain } = input;
  const ctx = createCheckContext(domain.world, task, initialStateFor(domain, task));
  let checks;
  try {
    checks = runChecks(task, trace, ctx);
  } finally {
    ctx.close();
  }
  const s = strictSuccess(checks);
  return episodeResult(input, { goal: s.goal, process: s.process, protection: s.protection, checks }, env);
}

/** What decided an episode: the checks' results (executable, hybrid) or the rubric's verdicts (simulated, `checks` empty). */
export interface EpisodeVerdict {
  goal: boolean;
  process: boolean;
  protection: boolean;
  checks: EpisodeResult["checks"];
  rubric?: EpisodeResult["rubric"];
}

/** An episode's result from its verdict: strict success, calls by kind, faults, the customer audit; `env` recorded when not executable. */
export function episodeResult(input: JudgeInput, v: EpisodeVerdict, env: EpisodeResult["env"] = "executable"): EpisodeResult {
  const { task, trace, golden, meta, domain } = input;
  const s = { ...v, strict: v.goal && v.process && v.protection };
  const checks = v.checks;
  return {
    task: task.id,
    domain: domain.id,
    industry: domain.card.industry,
    difficulty: task.difficulty,
    agent: meta.agent,
    user_sim: meta.user_sim,
    condition: meta.condition,
    run: meta.run,
    seed: meta.seed,
    status: meta.status,
    error: meta.error,
    end: meta.end,
    goal: s.goal,
    process: s.process,
    protection: s.protection,
    strict_success: s.strict,
    goal_reached_but_invalid: s.goal && !(s.process && s.protection),
    checks,
    calls: countCalls(trace),
    golden_calls: countCalls(golden),
    faults_injected: trace.events.filter((e) => e.fault !== undefined).length,
    turns: meta.turns,
    usage: meta.usage,
    user_sim_flags: auditTranscript(task, trace),
    trace_file: meta.trace_file,
    trace_sha256: meta.trace_sha256,
    ...(env !== "executable" ? { env } : {}),
    ...(v.rubric ? { rubric: v.rubric } : {}),
  };
}
