import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FoundryConfig } from "../../core/config.js";
import { FoundryError } from "../../core/errors.js";
import { stableJson } from "../../core/canonical-json.js";
import { createLlmRuntime, type LlmRuntimeOptions } from "../../llm/llm-runtime.js";
import type { TraceEvent } from "../../schemas/index.js";
import { loadEvalRelease } from "../load-release.js";
import { agentSlug } from "../agents/registry.js";
import { EnvSimulator } from "../env-sim/simulator.js";
import { compareResponse } from "./compare-response.js";
import { aggregate } from "./aggregate.js";
import { SimFidelityReport, type FidelityCall } from "./report-schema.js";
import { renderFidelityHtml } from "./render-html.js";

export interface SimFidelityOptions {
  release: string;
  releases?: string;
  /** The env-sim model measured (provider:model). */
  simulator: string;
  tasks: string[] | null;
  domains: string[] | null;
  out?: string;
  config: FoundryConfig;
  runtime?: LlmRuntimeOptions;
}

const METHOD =
  "Each released golden trace is replayed teacher-forced: for every agent call the simulator answers (operations, the query tool, wait), the simulator is asked for its answer given the task's environment configuration and the golden trace up to that call (the world's real responses), and its answer is compared with the world's recorded response: status, leaf fields of the result, records invented or missing (list rows matched by their first field).";

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

function precondition(e: TraceEvent): string | undefined {
  const err = isRow(e.result) && isRow(e.result.error) ? e.result.error : null;
  return typeof err?.precondition === "string" ? err.precondition : undefined;
}

/**
 * `synth simfidelity`: measure an environment simulator against the executable world on the
 * release's golden traces (teacher-forced, METHOD), per operation, per domain, overall and over
 * the conversation; write simfidelity.json (schema-checked) and simfidelity.html.
 */
export async function simFidelity(opts: SimFidelityOptions): Promise<{ report: SimFidelityReport; jsonPath: string; htmlPath: string }> {
  const release = loadEvalRelease(opts.release, opts.releases);
  const tasks = release.tasks.filter((t) => (opts.domains === null || opts.domains.includes(t.domain.id)) && (opts.tasks === null || opts.tasks.includes(t.task.id)));
  if (tasks.length === 0) throw new FoundryError("USAGE", "no task is selected (check --tasks and --domains)", { path: "--tasks" });
  const missing = tasks.filter((t) => t.env_config === null).map((t) => t.task.id);
  if (missing.length > 0) throw new FoundryError("EVALUATION_NO_ENV_CONFIG", `${release.name}@${release.version} ships no environment configuration for ${missing.slice(0, 5).join(", ")}: export the release again`, { file: release.dir }, missing);
  const runtime = createLlmRuntime({ ...opts.config, models: { ...opts.config.models, "env-sim": opts.simulator } }, opts.runtime ?? {});
  const calls: FidelityCall[] = [];
  try {
    runtime.preflight(["env-sim"]);
    for (const t of tasks) {
      const model = runtime.chatModel({ role: "env-sim", stage: "simfidelity", item: t.task.id });
      if (!model) throw new FoundryError("LLM_NOT_CONFIGURED", "no model for the env-sim role", { path: "--simulator" }, opts.simulator);
      const sim = new EnvSimulator({ model, config: t.env_config!(), native: opts.config.structured_output === "native" });
      let position = 0;
      const events = t.golden.events;
      for (let i = 0; i < events.length; i++) {
        const e = events[i]!;
        if (e.actor !== "agent" || e.kind === "agent_message" || !sim.answers(e.name)) continue;
        const p = await sim.predict({ name: e.name, args: e.args }, events.slice(0, i), null);
        // The results compared are the runtime's own (a proposal's id is in the result of the call that records it).
        const real = { status: e.status, result: e.result ?? null, precondition: precondition(e) };
        const simulated = p.ok ? { status: p.answer.status, result: p.answer.result ?? null, precondition: p.answer.precondition } : null;
        calls.push({ domain: t.domain.id, task: t.task.id, event: e.index, operation: e.name, position: ++position, valid: p.ok, ...compareResponse(real, simulated) });
      }
    }
  } finally {
    runtime.close();
  }
  const report = SimFidelityReport.parse({ release: { name: release.name, version: release.version, root_hash: release.root_hash }, simulator: opts.simulator, method: METHOD, ...aggregate(calls), calls });
  const out = opts.out ?? join("generated", "simfidelity", `${release.name}@${release.version}`, agentSlug(opts.simulator));
  mkdirSync(out, { recursive: true });
  const jsonPath = join(out, "simfidelity.json");
  const htmlPath = join(out, "simfidelity.html");
  writeFileSync(jsonPath, stableJson(report));
  writeFileSync(htmlPath, renderFidelityHtml(report));
  return { report, jsonPath, htmlPath };
}
