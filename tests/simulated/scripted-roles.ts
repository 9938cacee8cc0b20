import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chat, ScriptedServer, type SeenRequest, type ServerReply } from "../llm/scripted-server.js";

/*
 * The scripted models of a simulated-only build of tests/fixtures/simulated/appliance-repairs,
 * served over HTTP to real ChatOpenAI clients: each role is told apart by its model name (the
 * configuration gives every role its own), and answers by what its request says. Never a model:
 * scripted answers, named as such.
 */

export const MODELS = {
  "environment-builder": "openai:scripted-env-builder",
  "task-designer": "openai:scripted-designer",
  solver: "openai:scripted-solver",
  repairer: "openai:scripted-repairer",
  calibrator: "openai:scripted-calibrator",
  "env-sim": "openai:scripted-sim",
} as const;

const call = (id: string, name: string, args: unknown): ServerReply => chat(null, { toolCalls: [{ id, name, arguments: JSON.stringify(args) }] });
const messages = (r: SeenRequest) => r.body.messages as Array<{ role: string; content: unknown }>;
const lastText = (r: SeenRequest) => String(messages(r).at(-1)?.content ?? "");
const allText = (r: SeenRequest) => JSON.stringify(r.body.messages);
const offers = (r: SeenRequest, tool: string) => ((r.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).some((t) => t.function.name === tool);

export const ENVIRONMENT = {
  system_prompt: "You simulate the repair desk system of Hollin Home Appliances. A warranty lasts 24 months from purchase (RP-1.1); a warranty repair is free (RP-1.2). Unknown orders are refused with: no such order.",
  operations: [
    { name: "lookup_order", description: "Look up an order by its number.", parameters: { type: "object", properties: { order: { type: "string" } }, required: ["order"], additionalProperties: false }, access: "read", preconditions: [{ id: "known_order", message: "no such order" }], effects: "", result: { kind: "rows", many: false, fields: ["order", "appliance", "purchase_date"] } },
    { name: "book_repair", description: "Book a technician's visit for an order.", parameters: { type: "object", properties: { order: { type: "string" }, visit_date: { type: "string" } }, required: ["order", "visit_date"], additionalProperties: false }, access: "write", preconditions: [], effects: "adds a repair booking", result: { kind: "rows", many: false, fields: ["booking"] } },
  ],
  initial_state: [{ table: "orders", columns: ["order", "appliance", "purchase_date"], rows: [{ order: "HO-5521", appliance: "washing machine", purchase_date: "2025-02-10" }], omitted: 0 }],
  row_rule: "the customer's orders",
  state_description: { tables: [{ name: "orders", meaning: "an order of the customer", columns: [{ name: "order", meaning: "order number" }, { name: "appliance", meaning: "what was bought" }, { name: "purchase_date", meaning: "purchase date (ISO)" }] }], operations: [{ name: "lookup_order", changes: "nothing" }, { name: "book_repair", changes: "adds a booking" }], notes: "" },
};

/** Task k's draft (k = 1..4); `revised` is the repairer's version. */
export function taskDraft(k: number, revised = false) {
  return {
    title: `Warranty repair ${k}${revised ? " (revised)" : ""}`,
    objective: "A warranty repair of the washing machine is booked free of charge.",
    customer_id: "C-1",
    scenario: { persona: "A calm customer.", opening_request: `Request ${k}: my washing machine (order HO-5521) leaks; please book a repair${revised ? " next week" : ""}.`, private_facts: [] },
    solution_plan: [
      { step: 1, tool: "lookup_order", args: { order: "HO-5521" }, why: "check the warranty", clauses: ["RP-1.1"] },
      { step: 2, tool: "book_repair", args: { order: "HO-5521", visit_date: "2026-04-20" }, why: "book the visit", clauses: ["RD-1.3"] },
    ],
    rubric: [
      { id: `t${k}-checked`, group: "process", text: "The purchase date was looked up before the booking.", clauses: ["RP-1.1"] },
      { id: `t${k}-booked`, group: "goal", text: "A repair was booked for order HO-5521.", clauses: ["RD-1.3"] },
      { id: `t${k}-free`, group: "protection", text: "No payment was asked for.", clauses: ["RP-1.2"] },
    ],
    documents: { relevant: ["repair-policy", "repair-desk-manual"], distractors: [] },
    max_turns: 10,
  };
}

/** The first design of task 1: a tool the configuration lacks and a clause no document defines (refused, asked again). */
const BAD_DRAFT = { ...taskDraft(1), solution_plan: [{ step: 1, tool: "refund_order", args: {}, why: "x", clauses: ["RP-9.9"] }] };

/**
 * How each task's episodes are judged, in the order they run (solver, solver after a repair,
 * calibrator runs): pass (every criterion met, 3–0), split (met, one criterion 2–1), fail (the goal
 * criterion not met, 3–0). Task 1: released (calibrator 1 of 2: medium); task 2: dropped, too easy
 * (2 of 2); task 3: fails, repaired, passes, dropped as not solvable (0 of 2); task 4: fails, is
 * repaired once (the card allows 1), fails again, dropped.
 */
export const OUTCOMES: Record<string, Array<"pass" | "split" | "fail">> = {
  t1: ["split", "pass", "fail"],
  t2: ["pass", "pass", "pass"],
  t3: ["fail", "pass", "fail", "fail"],
  t4: ["fail", "fail"],
};

/** The agents' script (solver and calibrator alike): look the order up, book, finish — by the number of tool results so far. */
const AGENT = [
  (k: string) => call(`${k}-1`, "lookup_order", { order: "HO-5521" }),
  (k: string) => call(`${k}-2`, "book_repair", { order: "HO-5521", visit_date: "2026-04-20" }),
  (k: string) => call(`${k}-3`, "finish", { summary: "booked" }),
];

/** The scripted server's replies for the build of the fixture domain (and the evaluation after it: pass `evaluate` outcomes). */
export function buildScript(opts: { evaluate?: Record<string, Array<"pass" | "split" | "fail">> } = {}): { reply: (r: SeenRequest) => ServerReply; judged: Map<string, number>; designed: Map<number, number> } {
  const judged = new Map<string, number>();
  const designed = new Map<number, number>();
  const outcomes = opts.evaluate ?? OUTCOMES;
  const reply = (r: SeenRequest): ServerReply => {
    const model = `openai:${String(r.body.model)}`;
    if (model === MODELS["environment-builder"]) return call("env", "environment-builder", ENVIRONMENT);
    if (model === MODELS["task-designer"]) {
      const k = Number(/Design task appliance-repairs-(\d+)\./.exec(allText(r))?.[1]);
      const n = (designed.get(k) ?? 0) + 1;
      designed.set(k, n);
      return call(`design-${k}-${n}`, "task-designer", k === 1 && n === 1 ? BAD_DRAFT : taskDraft(k));
    }
    if (model === MODELS.repairer) {
      const k = Number(/Task appliance-repairs-(\d+) as designed/.exec(allText(r))?.[1]);
      return call(`repair-${k}`, "repairer", { diagnosis: "the opening request did not say when", action: "asked for a visit next week", task: taskDraft(k, true) });
    }
    if (offers(r, "env_sim_answer")) {
      const text = lastText(r);
      if (text.includes("Answer this call: lookup_order")) return call("sim", "env_sim_answer", { status: "executed", result: { order: "HO-5521", appliance: "washing machine", purchase_date: "2025-02-10" } });
      return call("sim", "env_sim_answer", { status: "executed", result: { booking: "BK-1" } });
    }
    if (offers(r, "rubric_judgment")) {
      const text = lastText(r);
      const task = /- (t\d)-checked/.exec(text)?.[1] as string;
      const n = judged.get(task) ?? 0;
      judged.set(task, n + 1);
      const outcome = outcomes[task]?.[Math.floor(n / 3)];
      if (!outcome) return { status: 599, body: { error: { message: `scripted server: no judgment scripted for ${task} episode ${Math.floor(n / 3) + 1}` } } };
      const round = (n % 3) + 1;
      const met = (id: string) => outcome === "pass" || (outcome === "split" ? !(id.endsWith("-checked") && round === 2) : !id.endsWith("-booked"));
      const ids = [...text.matchAll(/- (t\d-[a-z]+) \[/g)].map((m) => m[1] as string);
      return call(`judge-${task}-${n}`, "rubric_judgment", { verdicts: ids.map((id) => ({ criterion: id, met: met(id), reason: met(id) ? "seen in the transcript" : "not in the transcript" })) });
    }
    if (offers(r, "send_message")) {
      const step = messages(r).filter((m) => m.role === "tool").length;
      return (AGENT[step] ?? AGENT[2]!)(`a${step}`);
    }
    return { status: 599, body: { error: { message: `scripted server: no role for model ${model}` } } };
  };
  return { reply, judged, designed };
}

/** Start the scripted server of a build. */
export async function startScripted(opts: { evaluate?: Record<string, Array<"pass" | "split" | "fail">> } = {}): Promise<ScriptedServer & ReturnType<typeof buildScript>> {
  const script = buildScript(opts);
  const server = await ScriptedServer.start(script.reply);
  return Object.assign(server, script);
}

/** A temporary workspace holding the fixture domain under sources/. */
export function simulatedWorkspace(): { root: string; paths: { sources: string; sop: string; generated: string } } {
  const root = mkdtempSync(join(tmpdir(), "simulated-build-"));
  cpSync("tests/fixtures/simulated/appliance-repairs", join(root, "sources/appliance-repairs"), { recursive: true });
  return { root, paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") } };
}

