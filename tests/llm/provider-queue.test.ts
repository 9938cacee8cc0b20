import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { ProviderQueues } from "../../pipeline/llm/provider-queue.js";
import { LatencyModel, testConfig } from "./helpers.js";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("ProviderQueues", () => {
  it("keeps at most `concurrency` calls in flight per provider", async () => {
    const queues = new ProviderQueues({ concurrency: 3, intervalMs: 0 });
    let inFlight = 0;
    let max = 0;
    const task = async () => {
      inFlight++;
      max = Math.max(max, inFlight);
      await tick(10);
      inFlight--;
    };
    await Promise.all(Array.from({ length: 12 }, () => queues.run("openai", task)));
    expect(max).toBe(3);
    expect(queues.stats()).toEqual({ openai: { concurrency: 3, inFlight: 0, waiting: 0, maxInFlight: 3, completed: 12 } });
  });

  it("gives each provider its own budget", async () => {
    const queues = new ProviderQueues({ concurrency: 2, intervalMs: 0 });
    await Promise.all([
      ...Array.from({ length: 4 }, () => queues.run("openai", () => tick(10))),
      ...Array.from({ length: 4 }, () => queues.run("ollama", () => tick(10))),
    ]);
    const stats = queues.stats();
    expect(stats.openai?.maxInFlight).toBe(2);
    expect(stats.ollama?.maxInFlight).toBe(2);
  });

  it("starts at most intervalCap calls per rate-limit window", async () => {
    const queues = new ProviderQueues({ concurrency: 8, intervalMs: 50, intervalCap: 1 });
    const starts: number[] = [];
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 4 }, () => queues.run("openai", async () => void starts.push(performance.now() - t0))));
    // Four calls at one per 50 ms window need at least three window boundaries.
    expect((starts[3] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(140);
  });

  it("drops a waiting call whose signal aborts", async () => {
    const queues = new ProviderQueues({ concurrency: 1, intervalMs: 0 });
    const first = queues.run("openai", () => tick(30));
    const controller = new AbortController();
    let ran = false;
    const second = queues.run("openai", async () => void (ran = true), controller.signal);
    controller.abort();
    await expect(second).rejects.toMatchObject({ name: "AbortError" });
    await first;
    expect(ran).toBe(false);
  });

  it("validates its options, quoting the bad value", () => {
    expect(() => new ProviderQueues({ concurrency: 0, intervalMs: 0 })).toThrow("Expected `concurrency` to be a whole number from 1 and up, got `0`");
    expect(() => new ProviderQueues({ concurrency: 1, intervalMs: -1 })).toThrow("Expected `intervalMs` to be a whole number from 0 and up, got `-1`");
    expect(() => new ProviderQueues({ concurrency: 1, intervalMs: 10, intervalCap: 0 })).toThrow("Expected `intervalCap` to be a whole number from 1 and up, got `0`");
  });
});

describe("provider queues in the runtime", () => {
  it("share one concurrency budget between roles of the same provider", async () => {
    const model = new LatencyModel(20);
    const config = testConfig({ models: { solver: "scripted:a", verifier: "scripted:b" }, concurrency: 2 });
    const runtime = createLlmRuntime(config, { cache: null, modelFactory: () => model });
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        runtime.invoke({ role: i % 2 ? "solver" : "verifier", stage: "probe", item: `t${i}`, messages: [new HumanMessage(`q${i}`)] }),
      ),
    );
    expect(model.calls).toBe(8);
    expect(model.maxInFlight).toBe(2);
    expect(runtime.stats().queues).toEqual({ scripted: { concurrency: 2, inFlight: 0, waiting: 0, maxInFlight: 2, completed: 8 } });
  });
});
