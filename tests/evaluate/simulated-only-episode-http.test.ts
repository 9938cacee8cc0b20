import { afterEach, describe, expect, it } from "vitest";
import { createLlmRuntime } from "../../pipeline/llm/llm-runtime.js";
import { EnvConfig, SimulatedTask, Trace } from "../../pipeline/schemas/index.js";
import { runSimulatedOnlyEpisode } from "../../pipeline/evaluate/env-sim/simulated-only-episode.js";
import { runModelAgent } from "../../pipeline/evaluate/agents/model.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";

/*
 * One episode of a simulated-only task (no world.yaml): the real ChatOpenAI client over HTTP
 * against a scripted OpenAI-compatible server on 127.0.0.1 playing the agent, the environment
 * simulator and the rubric judge.
 */

const CONFIG = EnvConfig.parse({
  domain: "appliance-repairs",
  task: "appliance-repairs-001",
  strategy: "llm",
  as_of: "2026-04-14",
  system_prompt: "You simulate the repair desk system of Hollin Home Appliances.",
  tools: [
    { name: "lookup_order", description: "Look up an order.", parameters: { type: "object", properties: { order: { type: "string" } }, required: ["order"], additionalProperties: false }, kind: "operation", access: "read", preconditions: [{ id: "known_order", message: "no such order" }], effects: "", result: { kind: "rows", many: false, fields: ["order", "appliance", "purchase_date"] }, proposes: null, requires_approval: null },
    { name: "book_repair", description: "Book a repair.", parameters: { type: "object", properties: { order: { type: "string" }, visit_date: { type: "string" } }, required: ["order", "visit_date"], additionalProperties: false }, kind: "operation", access: "write", preconditions: [], effects: "inserts a repair booking", result: { kind: "rows", many: false, fields: ["booking"] }, proposes: null, requires_approval: null },
    { name: "send_message", description: "Say something to the customer.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"], additionalProperties: false }, kind: "conversation", access: null, preconditions: [], effects: "", result: null, proposes: null, requires_approval: null },
    { name: "finish", description: "End the conversation.", parameters: { type: "object", properties: { summary: { type: "string" } }, required: ["summary"], additionalProperties: false }, kind: "conversation", access: null, preconditions: [], effects: "", result: null, proposes: null, requires_approval: null },
  ],
  initial_state: [{ table: "orders", columns: ["order", "appliance", "purchase_date"], rows: [{ order: "HO-5521", appliance: "washing machine", purchase_date: "2025-02-10" }], omitted: 0 }],
  row_rule: "the customer's orders",
  state_description: { tables: [{ name: "orders", meaning: "an order", columns: [{ name: "order", meaning: "order number" }] }], operations: [{ name: "book_repair", changes: "adds a booking" }], notes: "" },
});

const TASK = SimulatedTask.parse({
  id: "appliance-repairs-001",
  domain: "appliance-repairs",
  simulated_only: true,
  title: "Warranty repair",
  objective: "A warranty repair of the washing machine is booked free of charge.",
  as_of: "2026-04-14",
  customer_id: "C-1",
  scenario: { persona: "A calm customer.", opening_request: "My washing machine leaks; please book a repair.", private_facts: [{ id: "order", statement: "The order number is HO-5521.", value: "HO-5521", disclose_when: ["order"] }] },
  solution_plan: [{ step: 1, tool: "lookup_order", args: { order: "HO-5521" }, why: "check the warranty", clauses: ["RP-1.1"] }, { step: 2, tool: "book_repair", args: { order: "HO-5521", visit_date: "2026-04-20" }, why: "book it", clauses: [] }],
  rubric: [
    { id: "warranty-checked", group: "process", text: "The purchase date was looked up before the booking.", clauses: ["RP-1.1"] },
    { id: "repair-booked", group: "goal", text: "A repair was booked for order HO-5521.", clauses: ["RD-1.3"] },
    { id: "no-payment", group: "protection", text: "No payment was asked for.", clauses: ["RP-1.2"] },
  ],
  documents: { relevant: ["repair-policy"], distractors: [] },
  difficulty: null,
  max_turns: 10,
});

const call = (id: string, name: string, args: Record<string, unknown>): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const offers = (r: SeenRequest, tool: string) => ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).some((t) => t.function.name === tool);

let server: ScriptedServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe("the episode of a simulated-only task (real ChatOpenAI over HTTP, scripted server)", () => {
  it("offers the configuration's tools, the simulator answers (a bad shape retried, then accepted), the customer discloses from the scenario, and the rubric vote is stored with a 2–1 split", async () => {
    const agent = [
      call("a1", "send_message", { text: "What is your order number?" }),
      call("a2", "lookup_order", { order: "HO-5521" }),
      call("a3", "book_repair", { order: "HO-5521", visit_date: "2026-04-20" }),
      call("a4", "finish", { summary: "booked" }),
    ];
    const sim = [
      call("s1", "env_sim_answer", { status: "executed", result: { order: "HO-5521", appliance: "washing machine", purchase_date: "2025-02-10" } }),
      call("s2", "env_sim_answer", { status: "executed", result: { booking: "BK-1", price: 0 } }),
      call("s3", "env_sim_answer", { status: "executed", result: { booking: "BK-1" } }),
    ];
    const verdicts = (notMet: string[]) => ({ verdicts: TASK.rubric.map((c) => ({ criterion: c.id, met: !notMet.includes(c.id), reason: "seen" })) });
    const judge = [call("j1", "rubric_judgment", verdicts([])), call("j2", "rubric_judgment", verdicts(["warranty-checked"])), call("j3", "rubric_judgment", verdicts([]))];
    const n = { agent: 0, sim: 0, judge: 0 };
    server = await ScriptedServer.start((r) => (offers(r, "send_message") ? agent[n.agent++]! : offers(r, "env_sim_answer") ? sim[n.sim++]! : offers(r, "rubric_judgment") ? judge[n.judge++]! : { status: 599, body: { error: { message: "unknown" } } }));
    const runtime = createLlmRuntime(testConfig({ models: { solver: "openai:gpt-4.1", "env-sim": "openai:gpt-4.1-mini" }, base_url: server.baseUrl, max_retries: 2 }), { cache: null, env: {}, sleep: async () => {} });
    try {
      const agentModel = runtime.chatModel({ role: "solver", stage: "solve" })!;
      const simModel = runtime.chatModel({ role: "env-sim", stage: "simulate" })!;
      const out = await runSimulatedOnlyEpisode({
        task: TASK,
        config: CONFIG,
        documents: [],
        domainTitle: "Appliance Repair Desk",
        agent: (session) => runModelAgent(agentModel, session, "repair desk agent"),
        simulator: simModel,
        judge: (variant) => simModel.forItem({ variant }),
        native: true,
        trace: { role: "golden", label: "solver", seed: 7, condition: "E0" },
        bounds: { maxToolCalls: 20, wallTimeMs: 60_000 },
      });
      // The agent was offered exactly the configuration's tools.
      const offered = ((server.requests[0]!.body.tools as Array<{ function: { name: string } }>) ?? []).map((t) => t.function.name);
      expect(offered).toEqual(["lookup_order", "book_repair", "send_message", "finish"]);
      expect(Trace.parse(out.trace).events.map((e) => [e.actor, e.kind, e.name ?? null, e.status ?? null, e.simulated ?? false])).toEqual([
        ["customer", "customer_message", "message", "executed", false],
        ["agent", "agent_message", "message", "executed", false],
        ["customer", "customer_message", "message", "executed", false],
        ["agent", "tool_call", "lookup_order", "executed", true],
        ["agent", "tool_call", "book_repair", "executed", true],
      ]);
      expect(out.trace.events[2]!.text).toBe("The order number is HO-5521.");
      // book_repair's first answer had an undeclared field: shown its problem, asked again (3 simulator requests for 2 calls).
      expect(server.requests.filter((q) => offers(q, "env_sim_answer"))).toHaveLength(3);
      expect(out.trace.events[4]!.result).toEqual({ booking: "BK-1" });
      expect(out.end).toBe("finished");
      expect(out.criteria.map((c) => [c.id, c.met, c.votes, c.total, c.split, c.judgments.map((j) => j.met)])).toEqual([
        ["warranty-checked", true, 2, 3, true, [true, false, true]],
        ["repair-booked", true, 3, 3, false, [true, true, true]],
        ["no-payment", true, 3, 3, false, [true, true, true]],
      ]);
      expect(out.criteria[0]!.text).toBe("The purchase date was looked up before the booking. (enforces RP-1.1)");
      expect([out.goal, out.process, out.protection, out.passed]).toEqual([true, true, true, true]);
    } finally {
      runtime.close();
    }
  }, 60_000);
});
