/**
 * Throughput of the LLM runtime: N calls to a simulated model (fixed latency per call) through the
 * full path (cache → provider queue → retry → timeout → model), compared with the ideal
 * ceil(N / concurrency) × latency.
 *
 *   node --import tsx bench/llm-queue.ts [--calls 200] [--latency 100] [--concurrency 8]
 *
 * `--smoke`: 16 calls of 5 ms at concurrency 4 (targets not judged).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import Table from "cli-table3";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { FoundryConfig } from "../pipeline/core/config.js";
import { createLlmRuntime } from "../pipeline/llm/llm-runtime.js";
import { ResponseCache } from "../pipeline/llm/response-cache.js";
import { SMOKE, reportMissed } from "./lib/smoke.js";

/** Answers every call after a fixed delay; tracks how many calls run at once. */
class SimulatedModel extends BaseChatModel {
  inFlight = 0;
  maxInFlight = 0;
  constructor(readonly latencyMs: number) {
    super({});
  }
  _llmType(): string {
    return "simulated-latency";
  }
  override async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, this.latencyMs));
    this.inFlight--;
    const text = `ok:${messages.at(-1)?.text ?? ""}`;
    return { generations: [{ text, message: new AIMessage({ content: text, usage_metadata: { input_tokens: 20, output_tokens: 3, total_tokens: 23 } }) }] };
  }
}

interface Row {
  scenario: string;
  calls: number;
  concurrency: number;
  latency_ms: number;
  wall_ms: number;
  /** ceil(calls / concurrency) × latency; null when no call reaches the model (all cache hits). */
  ideal_ms: number | null;
  ratio: number | null;
  calls_per_s: number;
  max_in_flight: number;
  within_15pct: boolean | null;
}

async function run(scenario: string, calls: number, latencyMs: number, concurrency: number, cache: ResponseCache | null, expectHits = false): Promise<Row> {
  const model = new SimulatedModel(latencyMs);
  const config = FoundryConfig.parse({ model: "scripted:simulated", concurrency, cache_dir: "unused" });
  const runtime = createLlmRuntime(config, { cache, modelFactory: () => model });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: calls }, (_, i) => runtime.invoke({ role: "task-designer", stage: "bench", item: `call-${i}`, messages: [new HumanMessage(`distinct prompt ${i}`)] })),
  );
  const wall = performance.now() - started;
  const total = runtime.stats().usage.total;
  const expected = expectHits ? { modelCalls: 0, cacheHits: calls } : { modelCalls: calls, cacheHits: 0 };
  if (total.modelCalls !== expected.modelCalls || total.cacheHits !== expected.cacheHits || total.failures !== 0) {
    throw new Error(`${scenario}: expected ${JSON.stringify(expected)} and no failure, got ${JSON.stringify(total)}`);
  }
  const ideal = expectHits ? null : Math.ceil(calls / concurrency) * latencyMs;
  const ratio = ideal === null ? null : wall / ideal;
  return {
    scenario,
    calls,
    concurrency,
    latency_ms: latencyMs,
    wall_ms: Math.round(wall),
    ideal_ms: ideal,
    ratio: ratio === null ? null : Math.round(ratio * 1000) / 1000,
    calls_per_s: Math.round(calls / (wall / 1000)),
    max_in_flight: model.maxInFlight,
    within_15pct: ratio === null ? null : ratio <= 1.15,
  };
}

const { values } = parseArgs({
  options: { calls: { type: "string", default: SMOKE ? "16" : "200" }, latency: { type: "string", default: SMOKE ? "5" : "100" }, concurrency: { type: "string", default: SMOKE ? "4" : "8" }, smoke: { type: "boolean" } },
});
const calls = Number(values.calls);
const latency = Number(values.latency);
const concurrency = Number(values.concurrency);

const dir = mkdtempSync(join(tmpdir(), "llm-bench-"));
const rows: Row[] = [];
try {
  rows.push(await run("cache off", calls, latency, concurrency, null));
  const cache = new ResponseCache(join(dir, "llm-cache.sqlite"));
  rows.push(await run("cache on, all misses", calls, latency, concurrency, cache));
  rows.push(await run("cache on, all hits", calls, latency, concurrency, cache, true));
  cache.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const table = new Table({ head: ["scenario", "calls", "conc.", "latency ms", "wall ms", "ideal ms", "wall/ideal", "calls/s", "max in flight", "≤ 1.15"] });
for (const r of rows) {
  const verdict = r.within_15pct === null ? "—" : r.within_15pct ? "yes" : "NO";
  table.push([r.scenario, r.calls, r.concurrency, r.latency_ms, r.wall_ms, r.ideal_ms ?? "—", r.ratio?.toFixed(3) ?? "—", r.calls_per_s, r.max_in_flight, verdict]);
}
console.log(table.toString());
console.log(JSON.stringify({ bench: "llm-queue", node: process.version, rows }, null, 2));
reportMissed(
  rows.flatMap((r) => [
    ...(r.within_15pct === false ? [`${r.scenario}: wall ${r.wall_ms} ms is ${r.ratio}× ideal (target ≤ 1.15)`] : []),
    ...(r.max_in_flight > r.concurrency ? [`${r.scenario}: ${r.max_in_flight} calls in flight (at most ${r.concurrency})`] : []),
  ]),
);
