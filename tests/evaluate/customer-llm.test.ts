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

/**
 * fx-treasury-017: a recall whose reason code only the customer knows, a duplicate suspicion cleared
 * with the invoice ref only the customer knows, then a payment release the customer must approve
 * (agreed terms), deferrals and a second recall.
 */
function fx017(): EvalTask {
  const t = release.tasks.find((x) => x.task.id === "fx-treasury-017");
  if (!t) throw new Error("fx-treasury-017 is not in the sample release");
  return t;
}

/** The sentence the scenario tells the customer to say for a private fact. */
function statement(et: EvalTask, fact: string): string {
  const f = et.task.scenario.private_facts.find((x) => x.id === fact);
  if (!f) throw new Error(`${et.task.id} has no private fact ${fact}`);
  return f.statement;
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
  it("a full episode: discloses the asked facts, reviews and approves the agreed proposal through its tool, strict success and no flag", async () => {
    const et = fx017();
    // The sentences the scenario tells the customer to say, each when asked.
    const reasonCode = statement(et, "reason_code");
    const invoiceRef = statement(et, "invoice_ref");
    expect([reasonCode, invoiceRef]).toEqual(["The reason code? It was paid twice (DUPL).", "The invoice ref is INV-77845."]);
    server = await ScriptedServer.start([
      reply("c1", reasonCode),
      reply("c2", invoiceRef),
      call("c3", "review_proposal", { proposal_id: "PR-0001" }),
      call("c4", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c5", "I have approved PR-0001."),
    ]);
    const { trace, customer } = await episode(et, runtime(server), actionsOf(et.golden), 46);
    expect(server.requests).toHaveLength(5);
    const first = server.requests[0]!.body;
    // Tools: reply, review and only the customer-side operation the scenario permits.
    expect((first.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual(["reply", "review_proposal", "approve_payment_release"]);
    const system = (first.messages as Sent)[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain(et.task.scenario.persona);
    expect(system.content).toContain(`say exactly "${reasonCode}"`);
    expect(system.content).toContain(`say exactly "${invoiceRef}"`);
    expect(system.content).toContain('payment_release: {"amount":54300,"beneficiary_id":"BEN-1072","currency":"EUR","payment_id":"PAY-10065"}');
    expect((first.messages as Sent).at(-1)).toEqual({ role: "user", content: "The agent says: To continue I need one detail from you: could you give me the reason code?" });
    // The next turn carries the whole conversation so far, then the agent's next line.
    const second = server.requests[1]!.body.messages as Sent;
    expect(second.slice(0, (first.messages as Sent).length)).toEqual(first.messages);
    expect(second.at(-1)).toEqual({ role: "user", content: "The agent says: To continue I need one detail from you: could you give me the invoice ref?" });
    expect((server.requests[2]!.body.messages as Sent).at(-1)).toEqual({ role: "user", content: "The agent says: Please review and approve proposal PR-0001." });
    // The review's real result reaches the model under its call id.
    const reviewed = (server.requests[3]!.body.messages as Sent).at(-1)!;
    expect(reviewed.tool_call_id).toBe("c3");
    expect(JSON.parse(reviewed.content as string)).toEqual({ proposal_id: "PR-0001", kind: "payment_release", status: "pending", terms: { amount: 54300, beneficiary_id: "BEN-1072", currency: "EUR", payment_id: "PAY-10065" }, agreed: true });
    expect(JSON.parse((server.requests[4]!.body.messages as Sent).at(-1)!.content as string)).toEqual({ status: "executed", result: { kind: "payment_release", proposal_id: "PR-0001", status: "approved" } });
    const customerSide = trace.events.filter((e) => e.actor === "customer").map((e) => [e.kind, e.name, e.status, e.text ?? null, e.facts]);
    expect(customerSide).toEqual([
      ["customer_message", "message", "executed", et.task.scenario.opening_request, []],
      ["customer_message", "message", "executed", reasonCode, ["reason_code"]],
      ["customer_message", "message", "executed", invoiceRef, ["invoice_ref"]],
      ["approval", "approve_payment_release", "executed", null, []],
      ["customer_message", "message", "executed", "I have approved PR-0001.", []],
    ]);
    const r = result(et, trace, customer, 0, 46);
    expect(r.checks.filter((c) => !c.passed).map((c) => c.check)).toEqual([]);
    expect([r.strict_success, r.user_sim_flags]).toEqual([true, []]);
    expect(r.usage["user-sim"]).toEqual({ calls: 5, input_tokens: 1000, output_tokens: 100, cost_usd: (1000 * 2 + 100 * 8) / 1_000_000 });
  });

  it("a customer scripted to disclose a fact unasked is flagged, and strict_success_unflagged leaves its episode out", async () => {
    const et = fx017();
    // Asked for the reason code, it also says the invoice ref, which the agent asks for only later.
    const leak = `${statement(et, "reason_code")} ${statement(et, "invoice_ref")}`;
    server = await ScriptedServer.start([
      reply("c1", leak),
      reply("c2", "As I said: the invoice ref is INV-77845."),
      call("c3", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c4", "Approved."),
    ]);
    const rt = runtime(server);
    const leaky = await episode(et, rt, actionsOf(et.golden), 47);
    const flagged = result(et, leaky.trace, leaky.customer, 1, 47);
    const at = leaky.trace.events.find((e) => e.text === leak)!;
    expect(at.facts).toEqual(["reason_code", "invoice_ref"]);
    expect(flagged.strict_success).toBe(true);
    expect(flagged.user_sim_flags).toEqual([{ kind: "unprompted_disclosure", event: at.index, detail: 'disclosed private fact "invoice_ref" without being asked for it' }]);
    // An unflagged episode of the same task in which the agent did nothing after the opening (no model call).
    const idle = await episode(et, rt, [{ type: "open" }], 46);
    const clean = result(et, idle.trace, idle.customer, 0, 46);
    expect([clean.strict_success, clean.user_sim_flags]).toEqual([false, []]);
    expect(server.requests).toHaveLength(4);
    const s = summarize([clean, flagged], { agent: "oracle", user_sim: SPEC, seed: 7, runs: 2, conditions: ["E0"] }, release);
    expect(s.overall.strict_success).toMatchObject({ rate: 0.5, n: 2 });
    expect(s.user_sim_audit).toMatchObject({ flagged_episodes: 1, flags: { unprompted_disclosure: 1, contradicted_fact: 0, unagreed_approval: 0, unrequested_action: 0 }, strict_success_unflagged: { rate: 0, n: 1 } });
  });

  it("a customer scripted to approve unasked and to state another reason code is flagged for both by the audit", async () => {
    const et = fx017();
    // The facts asked before the proposal are answered as told; then, asked about the recall, it approves unasked and names another code.
    server = await ScriptedServer.start([
      reply("c1", statement(et, "reason_code")),
      reply("c2", statement(et, "invoice_ref")),
      call("c3", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c4", "The reason code is TECH."),
    ]);
    const actions = actionsOf(et.golden);
    const upTo = actions.findIndex((a) => a.type === "approve");
    const { trace, customer } = await episode(et, runtime(server), [...actions.slice(0, upTo), { type: "ask", text: "What is the reason code for the recall?" }], 46);
    const approval = trace.events.find((e) => e.kind === "approval")!;
    const said = trace.events.at(-1)!;
    expect([approval.actor, approval.status, said.text]).toEqual(["customer", "executed", "The reason code is TECH."]);
    expect(result(et, trace, customer, 0, 46).user_sim_flags).toEqual([
      { kind: "unrequested_action", event: approval.index, detail: "performed approve_payment_release of PR-0001 without an agent request since the start" },
      { kind: "contradicted_fact", event: said.index, detail: 'stated TECH for private fact "reason_code", whose value is "DUPL"' },
    ]);
  });

  it("under the full-disclosure ablation the model is told the opening that was said, and restating a fact is not flagged", async () => {
    server = await ScriptedServer.start([reply("c1", "As I said, the invoice ref is INV-77845.")]);
    const et = fx017();
    const full = openingFor(et.task, "full-disclosure");
    const driver = EpisodeDriver.open(et.domain, et.task, { role: "agent", label: "oracle", seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server) });
      // The evaluator says the full-disclosure opening itself (episode-runner.ts), not the customer.
      driver.episode.say("customer", full.text, full.facts);
      expect(await customer.answer("Thanks. Could you confirm the invoice ref?")).toEqual({ text: "As I said, the invoice ref is INV-77845.", facts: ["invoice_ref"] });
      expect((server.requests[0]!.body.messages as Sent)[0]!.content).toContain(`You opened the conversation with: "${full.text}"`);
      expect(result(et, driver.finish(), customer, 0, 46).user_sim_flags).toEqual([]);
    } finally {
      driver.close();
    }
  });

  it("an approval of terms it never agreed to does not reach the world: the model reads not_agreed and the state is unchanged", async () => {
    const et = fx017();
    // The facts asked before the proposal are answered as told; then the approval it tries is refused.
    server = await ScriptedServer.start([
      reply("c1", statement(et, "reason_code")),
      reply("c2", statement(et, "invoice_ref")),
      call("c3", "approve_payment_release", { proposal_id: "PR-0001" }),
      reply("c4", "No, I won't approve that."),
    ]);
    // The same task with a customer who agreed to a different amount.
    const task: Task = { ...et.task, scenario: { ...et.task.scenario, approves: [{ kind: "payment_release", terms: { amount: 54000, beneficiary_id: "BEN-1072", currency: "EUR", payment_id: "PAY-10065" } }] } };
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
      expect(JSON.parse((server.requests[3]!.body.messages as Sent).at(-1)!.content as string)).toEqual({
        error: { code: "not_agreed", message: 'PR-0001 (payment_release) has terms {"amount":54300,"beneficiary_id":"BEN-1072","currency":"EUR","payment_id":"PAY-10065"}, which are not terms you agreed to: decline it in your reply' },
      });
    } finally {
      driver.close();
    }
  });

  it("a tool it was not given (a customer-side operation the scenario does not permit) is a tool error, nothing is traced", async () => {
    server = await ScriptedServer.start([call("c1", "approve_limit_increase", { proposal_id: "PR-0001" }), reply("c2", "Sorry, I cannot help with that.")]);
    const et = fx017();
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
    const et = fx017();
    const driver = EpisodeDriver.open(et.domain, et.task, { seed: 46 });
    try {
      const customer = llmCustomer({ task: et.task, episode: driver.episode, seed: 46 }, { runtime: runtime(server, 2) });
      const err = await customer.answer("What is the reason?").then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CustomerFailure);
      expect((err as CustomerFailure).errorClass).toBe("server_error");
      expect((err as CustomerFailure).message).toMatch(/^user-sim openai:gpt-4\.1: openai:gpt-4\.1 failed for stage evaluate, item fx-treasury-017 after 3 attempts: server_error \(HTTP 500\)/);
      expect(server.requests).toHaveLength(3);
    } finally {
      driver.close();
    }
  });

  it("a model that never replies through its tool fails the answer as invalid_answer after the nudges", async () => {
    server = await ScriptedServer.start([chat("Hmm."), chat("Well."), chat("Let me think.")]);
    const et = fx017();
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
