// A simulated model for the evaluator over real HTTP: an OpenAI-compatible Chat Completions server
// on 127.0.0.1 that answers every request, after a fixed latency, with the next agent call of the
// task's golden trace (the task is found by its opening request in the first user message; the
// step is the number of assistant turns so far). Deterministic: the same conversation always gets
// the same answer and token counts, whichever process or worker asks. It counts the requests, the
// most in flight at once, and the span from the first request to the last answer. Used by
// bench/queue-throughput.ts, bench/evaluator-latency.ts and the postgres backend tests to drive the real LangChain client and LLM runtime.
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Trace } from "../pipeline/schemas/index.js";

type Step = { name: string; args: Record<string, unknown> };

/** The golden trace's agent calls as tool calls (messages through send_message), then finish. */
export function goldenScript(golden: Trace): Step[] {
  const steps: Step[] = [];
  for (const e of golden.events) {
    if (e.actor !== "agent") continue;
    if (e.kind === "agent_message") steps.push({ name: "send_message", args: { text: e.text ?? "" } });
    else steps.push({ name: e.name, args: { ...e.args } });
  }
  return [...steps, { name: "finish", args: { summary: "done" } }];
}

export class GoldenModelServer {
  calls = 0;
  /** Requests being answered now, and the most at once since the last `resetStats()`. */
  inFlight = 0;
  maxInFlight = 0;
  /** performance.now() when the first request since `resetStats()` arrived and the last answer was sent (null before any). */
  firstRequestAt: number | null = null;
  lastAnswerAt: number | null = null;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #port = 0;

  private constructor(scripts: ReadonlyArray<{ opening: string; steps: Step[] }>, latencyMs: number) {
    this.#server = createServer((req, res) => {
      this.firstRequestAt ??= performance.now();
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.calls++;
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { messages?: Array<{ role: string; content?: unknown }> };
        const messages = body.messages ?? [];
        const first = String(messages.find((m) => m.role === "user")?.content ?? "");
        const k = messages.filter((m) => m.role === "assistant").length;
        const script = scripts.find((s) => first.includes(s.opening));
        const step = script?.steps[k] ?? { name: "finish", args: { summary: "done" } };
        const prompt = 50 + messages.length * 10;
        const answer = {
          id: `chatcmpl-${k}`,
          object: "chat.completion",
          created: 1,
          model: "golden",
          choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: `call_${k}`, type: "function", function: { name: step.name, arguments: JSON.stringify(step.args) } }] }, finish_reason: "tool_calls" }],
          usage: { prompt_tokens: prompt, completion_tokens: 10, total_tokens: prompt + 10 },
        };
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json", connection: "close" });
          res.end(JSON.stringify(answer));
          this.inFlight--;
          this.lastAnswerAt = performance.now();
        }, latencyMs);
      });
    });
    this.#server.on("connection", (s) => {
      this.#sockets.add(s);
      s.on("close", () => this.#sockets.delete(s));
    });
  }

  /** Start a server answering each task's golden calls after `latencyMs`. */
  static async start(tasks: ReadonlyArray<{ opening: string; golden: Trace }>, latencyMs: number): Promise<GoldenModelServer> {
    const s = new GoldenModelServer(tasks.map((t) => ({ opening: t.opening, steps: goldenScript(t.golden) })), latencyMs);
    await new Promise<void>((resolve) => s.#server.listen(0, "127.0.0.1", resolve));
    s.#port = (s.#server.address() as AddressInfo).port;
    return s;
  }

  /** Start counting anew (calls, in flight, first request and last answer). */
  resetStats(): void {
    this.calls = 0;
    this.maxInFlight = this.inFlight;
    this.firstRequestAt = null;
    this.lastAnswerAt = null;
  }

  /** `base_url` for `openai:golden`. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.#port}/v1`;
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
