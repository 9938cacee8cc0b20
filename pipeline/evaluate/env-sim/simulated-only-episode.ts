import type { EnvConfig, SimulatedTask, Trace } from "../../schemas/index.js";
import type { Condition, RubricCriterion } from "../../schemas/evaluation-result.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import { planFaults } from "../../world/faults.js";
import { standInWorld } from "../../world/env-config/stand-in-world.js";
import { EpisodeDriver } from "../../../validation/episode-driver.js";
import { deterministicCustomer } from "../customer/deterministic.js";
import { Session, type EndReason } from "../session.js";
import type { AgentRun } from "../agents/types.js";
import { EnvSimulator } from "./simulator.js";
import { SimulatedFaults } from "./fault-rules.js";
import { simulatedLayer } from "./tool-layers.js";
import { judgeRubric } from "../rubric/judge-rubric.js";
import { simulatedRubricCriteria } from "../rubric/criteria.js";
import { rubricGroups, rubricVerdicts } from "../rubric/rubric-verdict.js";
import type { StructuredCallOptions } from "../../llm/structured-output.js";
import type { z } from "zod";

type Model = StructuredCallOptions<z.ZodType>["model"];

/** Agent calls an episode of a simulated-only task may make unless told otherwise: three per plan step, at least 20. */
export function simulatedCallBound(task: Pick<SimulatedTask, "solution_plan">): number {
  return Math.max(20, 3 * task.solution_plan.length);
}

export interface SimulatedOnlyEpisodeInput {
  task: SimulatedTask;
  config: EnvConfig;
  documents: readonly KnowledgeDocument[];
  domainTitle: string;
  /** The agent: given the session, works it to its end (the model agent on the one agent loop). */
  agent: (session: Session) => Promise<AgentRun>;
  /** The env-sim role's model answering this episode's calls. */
  simulator: Model;
  /** The env-sim role's model for judgment round `judge-N` (three independent samples). */
  judge: (variant: string) => Model;
  native: boolean;
  trace: { role: Trace["role"]; label: string; seed: number; condition: Condition };
  bounds: { maxToolCalls: number; wallTimeMs: number; now?: () => number };
  faults?: { events: number; duration: number };
}

export interface SimulatedOnlyEpisode {
  trace: Trace;
  end: EndReason;
  run: AgentRun | null;
  /** Each criterion's majority verdict with every judgment; empty when the episode errored before it could be judged. */
  criteria: RubricCriterion[];
  goal: boolean;
  process: boolean;
  protection: boolean;
  /** goal ∧ process ∧ protection, by majority. */
  passed: boolean;
}

/**
 * One episode of a simulated-only task: the runtime records it on the configuration's stand-in
 * world (messages, documents, the clock), the env-sim model answers every business call from the
 * configuration (shape-checked, retried, then an errored call), the deterministic customer speaks
 * from the scenario, and the rubric verifier judges the trajectory: 3 independent judgments per
 * criterion, majority vote (validation/majority-vote.ts), every judgment kept. What the build's
 * solver and calibrator run, and what `synth evaluate --env simulated` runs on such a task. A
 * provider failure (agent, simulator or judge) throws.
 */
export async function runSimulatedOnlyEpisode(p: SimulatedOnlyEpisodeInput): Promise<SimulatedOnlyEpisode> {
  const { world, base } = standInWorld(p.config);
  const plan = planFaults({ condition: p.trace.condition, events: p.faults?.events ?? 1, callsPerEvent: p.faults?.duration ?? 1, seed: p.trace.seed, totalCallsHint: p.task.solution_plan.length });
  const faults = new SimulatedFaults(plan);
  const view = { id: p.task.id, scenario: p.task.scenario, initial_state: [] };
  const driver = EpisodeDriver.open({ base, world, documents: p.documents }, view, { role: p.trace.role, label: p.trace.label, seed: p.trace.seed, condition: p.trace.condition, wrap: (inner) => faults.wrapReference(inner) });
  let session: Session;
  let run: AgentRun | null = null;
  let trace: Trace;
  try {
    const customer = deterministicCustomer({ task: view, episode: driver.episode });
    const opening = await customer.open();
    const sim = new EnvSimulator({ model: p.simulator, config: p.config, episode: driver.episode, native: p.native });
    const now = p.bounds.now ?? Date.now;
    session = new Session({
      driver,
      customer,
      scripted: false,
      tools: "direct",
      bounds: { maxTurns: p.task.max_turns, maxToolCalls: p.bounds.maxToolCalls, deadline: now() + p.bounds.wallTimeMs, now },
      opening,
      givenDocuments: [],
      businessDate: p.task.as_of,
      domainTitle: p.domainTitle,
      layer: simulatedLayer(sim, faults),
      toolSpecs: { specs: p.config.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })), operations: p.config.tools.filter((t) => t.kind === "operation").map((t) => t.name) },
    });
    run = await p.agent(session);
    trace = driver.finish();
  } finally {
    driver.close();
  }
  const end: EndReason = session.end ?? (run?.end === "gave_up" ? "gave_up" : "finished");
  const criteria = simulatedRubricCriteria(p.task);
  const judgments = await judgeRubric(p.judge, p.native, p.task, trace, criteria);
  const verdicts = rubricVerdicts(criteria, judgments);
  const groups = rubricGroups(verdicts);
  return { trace, end, run, criteria: verdicts, ...groups, passed: groups.goal && groups.process && groups.protection };
}
