import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Task } from "../../schemas/index.js";
import type { DomainContext, SolveResult, Solver } from "../types.js";
import { runModelEpisode } from "../../../validation/probes/model-probe.js";

export interface LlmSolverOptions {
  /** A chat model that supports tool calling; a runtime model is charged to each task (`forItem`). */
  model: Pick<BaseChatModel, "bindTools"> & { forItem?(change: { item: string }): Pick<BaseChatModel, "bindTools"> };
  /** Times the model is told what went wrong (malformed arguments, a turn without a tool call). Default 2. */
  maxNudges?: number;
}

/**
 * The solver's llm strategy: a tool-calling agent on the one agent loop (the same the model probes
 * use) that works the task through the tools an evaluated agent gets, with the scripted customer
 * answering. Its trace becomes the golden trace only if it then passes the verification gates.
 */
export class LlmSolver implements Solver {
  readonly #opts: LlmSolverOptions;
  constructor(opts: LlmSolverOptions) {
    this.#opts = opts;
  }

  async solve(ctx: DomainContext, task: Task): Promise<SolveResult> {
    const model = typeof this.#opts.model.forItem === "function" ? this.#opts.model.forItem({ item: task.id }) : this.#opts.model;
    const run = await runModelEpisode(ctx, task, model, { role: "golden", label: "llm", ...(this.#opts.maxNudges !== undefined ? { maxNudges: this.#opts.maxNudges } : {}) });
    return run.finished ? { ok: true, trace: run.trace } : { ok: false, reason: run.loop.reason ?? "the model did not finish" };
  }
}
