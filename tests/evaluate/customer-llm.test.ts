import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { EpisodeResult } from "../../pipeline/schemas/evaluation-result.js";
import { createLlmRuntime, type LlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { loadEvalRelease, type EvalRelease, type EvalTask } from "../../pipeline/evaluate/load-release.js";
import { judgeEpisode } from "../../pipeline/evaluate/judge-episode.js";
import { llmCustomer } from "../../pipeline/evaluate/customer/llm.js";
import { CustomerFailure, type Customer } from "../../pipeline/evaluate/customer/types.js";
import { summarize } from "../../pipeline/evaluate/score/summarize.js";
import { openingFor } from "../../pipeline/evaluate/ablation.js";
import { EpisodeDriver } from "../../validation/episode-driver.js";
import { actionsOf } from "../../validation/episode-actions.js";
import type { EpisodeAction } from "../../validation/episode-actions.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type ServerReply } from "../llm/scripted-server.js";

const RELEASES = fileURLToPath(new URL("../../generated/releases", import.meta.url));
const SPEC = "openai:gpt-4.1";

let release: EvalRelease;
let server: ScriptedServer | null = null;
beforeAll(() => {
  release = loadEvalRelease("sample", RELEASES);
});
afterEach(async () => {
  await server?.close();
  server = null;
});

/** fx-treasury-016: a payment release the customer must approve (agreed terms), a deferral, then a cancellation whose reason only the customer knows. */
function fx016(): EvalTask {
  const t = release.tasks.find((x) => x.task.id === "fx-treasury-016");
  if (!t) throw new Error("fx-treasury-016 is not in the sample release");
  return t;
}

const call = (id: string, name: string, args: Record<string, unknown>): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }], usage: [200, 20] });
const reply = (id: string, message: string): ServerReply => call(id, "reply", { message });

function runtime(s: ScriptedServer, maxRetries = 0): LlmRuntime {
  return createLlmRuntime(testConfig({ models: { "user-sim": SPEC }, base_url: s.baseUrl, max_retries: maxRetries }), { cache: null, env: {}, sleep: async () => {} });
}

/** One episode driven the one way episodes are driven: the agent's actions through EpisodeDriver, the llm customer answering. */
async function episode(et: EvalTask, rt: LlmRuntime, actions: readonly EpisodeAction[], seed: number, task: Task = et.task): Promise<{ trace: Trace; customer: Customer; driver: EpisodeDriver }> {
  const driver = EpisodeDriver.open(et.domain, task, { role: "agent", label: "oracle", seed });
  const customer = llmCustomer({ task, episode: driver.episode, seed }, { runtime: rt });
  try {
    for (const a of actions) await driver.doWith(a, customer);
    return { trace: driver.finish(), customer, driver };
  } finally {
    driver.close();
  }
}

function result(et: EvalTask, trace: Trace, customer: Customer, run: number, seed: number): EpisodeResult {
  const usage = customer.usage();
  return judgeEpisode({
    task: et.task,
    trace,
    golden: et.golden,
    domain: et.domain,
    meta: { agent: "oracle", user_sim: customer.spec, condition: "E0", run, seed, status: "completed", error: null, end: "finished", turns: 0, usage: usage ? { "user-sim": usage } : {}, trace_file: `traces/${run}.json`, trace_sha256: "0".repeat(64) },
  });
}

type Sent = Array<{ role: string; content: string | null; tool_call_id?: string }>;

describe("the llm customer over HTTP with the real ChatOpenAI client", () => {
  it("a full episode: reviews and approves the agreed proposal through its tool, discloses the asked fact, strict success and no flag", async () => {
    server = await ScriptedServer.start([
      call("c1", "review_proposal", { proposal_id: "PR-0001" }),
      call("c2", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c3", "I have approved PR-0001."),
      reply("c4", "The reason is client_request."),
    ]);
    const et = fx016();
    const { trace, customer } = await episode(et, runtime(server), actionsOf(et.golden), 46);
    expect(server.requests).toHaveLength(4);
    const first = server.requests[0]!.body;
    // Tools: reply, review and only the customer-side operation the scenario permits.
    expect((first.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(["reply", "review_proposal", "approve_payment_release"]);
    const system = (first.messages as Sent)[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain(et.task.scenario.persona);
    expect(system.content).toContain('say exactly "The reason is client_request."');
    expect(system.content).toContain('payment_release: {"amount":47500,"beneficiary_id":"BEN-1033","currency":"CHF","payment_id":"PAY-10023"}');
    expect((first.messages as Sent).at(-1)).toEqual({ role: "user", content: "The agent says: Please review and approve proposal PR-0001." });
    // The review's real result reaches the model under its call id.
    const reviewed = (server.requests[1]!.body.messages as Sent).at(-1)!;
    expect(reviewed.tool_call_id).toBe("c1");
    expect(JSON.parse(reviewed.content as string)).toEqual({ proposal_id: "PR-0001", kind: "payment_release", status: "pending", terms: { amount: 47500, beneficiary_id: "BEN-1033", currency: "CHF", payment_id: "PAY-10023" }, agreed: true });
    expect(JSON.parse((server.requests[2]!.body.messages as Sent).at(-1)!.content as string)).toEqual({ status: "executed", result: { kind: "payment_release", proposal_id: "PR-0001", status: "approved" } });
    // The next turn carries the whole conversation so far, then the agent's question.
    expect((server.requests[3]!.body.messages as Sent).at(-1)).toEqual({ role: "user", content: "The agent says: To continue I need one detail from you: could you give me the reason?" });
    const customerSide = trace.events.filter((e) => e.actor === "customer").map((e) => [e.kind, e.name, e.status, e.text ?? null, e.facts]);
    expect(customerSide).toEqual([
      ["customer_message", "message", "executed", et.task.scenario.opening_request, []],
      ["approval", "approve_payment_release", "executed", null, []],
      ["customer_message", "message", "executed", "I have approved PR-0001.", []],
      ["customer_message", "message", "executed", "The reason is client_request.", ["reason"]],
    ]);
    const r = result(et, trace, customer, 0, 46);
    expect(r.checks.filter((c) => !c.passed).map((c) => c.check)).toEqual([]);
    expect([r.strict_success, r.user_sim_flags]).toEqual([true, []]);
    expect(r.usage["user-sim"]).toEqual({ calls: 4, input_tokens: 800, output_tokens: 80, cost_usd: (800 * 2 + 80 * 8) / 1_000_000 });
  });

  it("a customer scripted to disclose a fact unasked is flagged, and strict_success_unflagged leaves its episode out", async () => {
    server = await ScriptedServer.start([
      call("c1", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c2", "Approved. By the way, the reason is client_request."),
      reply("c3", "As I said: the reason is client_request."),
    ]);
    const et = fx016();
    const rt = runtime(server);
    const leaky = await episode(et, rt, actionsOf(et.golden), 47);
    const flagged = result(et, leaky.trace, leaky.customer, 1, 47);
    const at = leaky.trace.events.find((e) => e.text === "Approved. By the way, the reason is client_request.")!;
    expect(at.facts).toEqual(["reason"]);
    expect(flagged.strict_success).toBe(true);
    expect(flagged.user_sim_flags).toEqual([{ kind: "unprompted_disclosure", event: at.index, detail: 'disclosed private fact "reason" without being asked for it' }]);
    // An unflagged episode of the same task in which the agent did nothing after the opening (no model call).
    const idle = await episode(et, rt, [{ type: "open" }], 46);
    const clean = result(et, idle.trace, idle.customer, 0, 46);
    expect([clean.strict_success, clean.user_sim_flags]).toEqual([false, []]);
    expect(server.requests).toHaveLength(3);
    const s = summarize([clean, flagged], { agent: "oracle", user_sim: SPEC, seed: 7, runs: 2, conditions: ["E0"] }, release);
    expect(s.overall.strict_success).toMatchObject({ rate: 0.5, n: 2 });
    expect(s.user_sim_audit).toMatchObject({ flagged_episodes: 1, flags: { unprompted_disclosure: 1, contradicted_fact: 0, unagreed_approval: 0, unrequested_action: 0 }, strict_success_unflagged: { rate: 0, n: 1 } });
  });

  it("a customer scripted to approve unasked and to state another reason is flagged for both by the audit", async () => {
    server = await ScriptedServer.start([call("c1", "approve_payment_release", { proposal_id: "PR-0001" }), reply("c2", "The reason is duplicate_payment.")]);
    const et = fx016();
    const actions = actionsOf(et.golden);
    const upTo = actions.findIndex((a) => a.type === "approve");
    const { trace, customer } = await episode(et, runtime(server), [...actions.slice(0, upTo), { type: "ask", text: "What is the reason for the cancellation?" }], 46);
    const approval = trace.events.find((e) => e.kind === "approval")!;
    const said = trace.events.at(-1)!;
    expect([approval.actor, approval.status, said.text]).toEqual(["customer", "executed", "The reason is duplicate_payment."]);
    expect(result(et, trace, customer, 0, 46).user_sim_flags).toEqual([
      { kind: "unrequested_action", event: approval.index, detail: "performed approve_payment_release of PR-0001 without an agent request since the start" },
      { kind: "contradicted_fact", event: said.index, detail: 'stated duplicate_payment for private fact "reason", whose value is "client_request"' },
    ]);
  });

  it("under the full-disclosure ablation the model is told the opening that was said, and restating a fact is not flagged", async () => {
    server = await ScriptedServer.start([reply("c1", "As I said, the reason is client_request.")]);
    const et = fx016();
    const full = openingFor(et.task, "full-disclosure");
    const driver = EpisodeDriver.open(et.domain, et.task, { role: "agent", label: "oracle", seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server) });
      // The evaluator says the full-disclosure opening itself (episode-runner.ts), not the customer.
      driver.episode.say("customer", full.text, full.facts);
      expect(await customer.answer("Thanks. Could you confirm the reason?")).toEqual({ text: "As I said, the reason is client_request.", facts: ["reason"] });
      expect((server.requests[0]!.body.messages as Sent)[0]!.content).toContain(`You opened the conversation with: "${full.text}"`);
      expect(result(et, driver.finish(), customer, 0, 46).user_sim_flags).toEqual([]);
    } finally {
      driver.close();
    }
  });

  it("an approval of terms it never agreed to does not reach the world: the model reads not_agreed and the state is unchanged", async () => {
    server = await ScriptedServer.start([call("c1", "approve_payment_release", { proposal_id: "PR-0001" }), reply("c2", "No, I won't approve that.")]);
    const et = fx016();
    // The same task with a customer who agreed to a different amount.
    const task: Task = { ...et.task, scenario: { ...et.task.scenario, approves: [{ kind: "payment_release", terms: { amount: 47000, beneficiary_id: "BEN-1033", currency: "CHF", payment_id: "PAY-10023" } }] } };
    const actions = actionsOf(et.golden);
    const upTo = actions.findIndex((a) => a.type === "approve");
    const driver = EpisodeDriver.open(et.domain, task, { role: "agent", label: "oracle", seed: 46 });
    try {
      const customer = llmCustomer({ task, episode: driver.episode, seed: 46 }, { runtime: runtime(server) });
      for (const a of actions.slice(0, upTo)) await driver.doWith(a, customer);
      const before = driver.episode.contentHash();
      const step = await driver.doWith(actions[upTo]!, customer);
      expect(step.outcome).toBeNull();
      expect(step.reply).toBe("No, I won't approve that.");
      expect(driver.episode.contentHash()).toBe(before);
      expect(step.events.map((e) => [e.kind, e.actor])).toEqual([
        ["agent_message", "agent"],
        ["customer_message", "customer"],
      ]);
      expect(JSON.parse((server.requests[1]!.body.messages as Sent).at(-1)!.content as string)).toEqual({
        error: { code: "not_agreed", message: 'PR-0001 (payment_release) has terms {"amount":47500,"beneficiary_id":"BEN-1033","currency":"CHF","payment_id":"PAY-10023"}, which are not terms you agreed to: decline it in your reply' },
      });
    } finally {
      driver.close();
    }
  });

  it("a tool it was not given (a customer-side operation the scenario does not permit) is a tool error, nothing is traced", async () => {
    server = await ScriptedServer.start([call("c1", "approve_limit_increase", { proposal_id: "PR-0001" }), reply("c2", "Sorry, I cannot help with that.")]);
    const et = fx016();
    const driver = EpisodeDriver.open(et.domain, et.task, { seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server) });
      const r = await customer.answer("Could you approve the limit increase?");
      expect(r).toEqual({ text: "Sorry, I cannot help with that.", facts: [] });
      expect(driver.episode.events.map((e) => e.kind)).toEqual(["agent_message", "customer_message"]);
      expect(JSON.parse((server.requests[1]!.body.messages as Sent).at(-1)!.content as string)).toEqual({ error: { code: "unknown_tool", message: 'no tool named "approve_limit_increase"; your tools: reply, review_proposal, approve_payment_release' } });
    } finally {
      driver.close();
    }
  });

  it("a provider failing after its retries is a CustomerFailure with the error class (the episode is errored)", async () => {
    server = await ScriptedServer.start(() => ({ status: 500, body: { error: { message: "upstream down" } } }));
    const et = fx016();
    const driver = EpisodeDriver.open(et.domain, et.task, { seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server, 2) });
      const err = await customer.answer("What is the reason?").then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CustomerFailure);
      expect((err as CustomerFailure).errorClass).toBe("server_error");
      expect((err as CustomerFailure).message).toMatch(/^user-sim openai:gpt-4\.1: openai:gpt-4\.1 failed for stage evaluate, item fx-treasury-016 after 3 attempts: server_error \(HTTP 500\)/);
      expect(server.requests).toHaveLength(3);
    } finally {
      driver.close();
    }
  });

  it("a model that never replies through its tool fails the answer as invalid_answer after the nudges", async () => {
    server = await ScriptedServer.start([chat("Hmm."), chat("Well."), chat("Let me think.")]);
    const et = fx016();
    const driver = EpisodeDriver.open(et.domain, et.task, { seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server) });
      const err = (await customer.answer("What is the reason?").catch((e: unknown) => e)) as CustomerFailure;
      expect(err).toBeInstanceOf(CustomerFailure);
      expect([err.errorClass, err.message]).toEqual(["invalid_answer", "user-sim openai:gpt-4.1 did not reply to the agent: the model answered without calling a tool 3 time(s): Let me think."]);
      expect(server.requests).toHaveLength(3);
    } finally {
      driver.close();
    }
  });
});
