import type { ToolSpec } from "../world/standard-tools.js";
import type { KnowledgeDocument } from "../world/documents-tool.js";
import { agentToolSpecs } from "../world/standard-tools.js";
import { CONVERSATION_TOOLS, MESSAGE_MAX_CHARS } from "../world/conversation-tools.js";
import type { ToolOutcome } from "../world/types.js";
import type { EpisodeDriver, ActionStep } from "../../validation/episode-driver.js";
import type { EpisodeAction } from "../../validation/episode-actions.js";
import type { AgentSession, SessionReply } from "./agents/types.js";
import type { Customer } from "./customer/types.js";
import type { EpisodeResult } from "../schemas/evaluation-result.js";
import type { ToolLayer } from "./env-sim/tool-layers.js";

export { CONVERSATION_TOOLS, MESSAGE_MAX_CHARS };

export type EndReason = EpisodeResult["end"];

/** What bounds one episode. */
export interface SessionBounds {
  maxTurns: number;
  maxToolCalls: number;
  /** Wall-clock deadline (epoch ms) of the episode. */
  deadline: number;
  now?: () => number;
}

export interface SessionOptions {
  driver: EpisodeDriver;
  customer: Customer;
  /** The customer is the deterministic one (scripted agents' actions then go to the episode driver's `do`). */
  scripted: boolean;
  tools: "direct" | "discovery";
  bounds: SessionBounds;
  opening: string;
  givenDocuments: readonly KnowledgeDocument[];
  businessDate: string;
  domainTitle: string;
  /** The environment mode's layer (simulated: the simulator answers; hybrid: it renders); none: executable. */
  layer?: ToolLayer;
  /**
   * A simulated-only task: the tools its environment configuration declares, offered as they are
   * (the episode's stand-in world has no executable operation; the layer answers them). Default:
   * the world's tools.
   */
  toolSpecs?: { specs: readonly ToolSpec[]; operations: readonly string[] };
}

// Tool specs (JSON Schemas of every tool) depend only on the world and the mode: built once, not per episode.
const specCache = new WeakMap<object, Map<string, readonly ToolSpec[]>>();

function offeredTools(world: Parameters<typeof agentToolSpecs>[0], mode: "direct" | "discovery"): readonly ToolSpec[] {
  let perWorld = specCache.get(world);
  if (!perWorld) specCache.set(world, (perWorld = new Map()));
  let specs = perWorld.get(mode);
  if (!specs) perWorld.set(mode, (specs = [...agentToolSpecs(world, mode), ...CONVERSATION_TOOLS]));
  return specs;
}

function toolError(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

/** What the agent reads of a call's outcome: the result, with the status when it did not execute. */
function shown(o: ToolOutcome): unknown {
  if (o.status === "executed" || o.status === "faulted") return o.proposal_id && o.status === "executed" ? { proposal_id: o.proposal_id, result: o.result } : o.result;
  return { status: o.status, ...(o.result && typeof o.result === "object" ? (o.result as object) : { result: o.result }), ...(o.reason ? { reason: o.reason } : {}) };
}

/**
 * The tools one agent sees in one episode, and the episode's bounds. Only offered tools run: any
 * other name (a customer-side operation, a business operation in discovery mode, an unknown name)
 * is an `unknown_tool` error, traced, with no state change. Arguments are checked by the world
 * runtime (missing, extra, wrong-typed, oversized); the query tool is read-only on the agent view.
 * `finish` ends the episode; so does reaching a bound (turns, calls, wall time), after which every
 * call answers that the episode is over. Nothing here throws for what an agent does wrong.
 */
export class Session implements AgentSession {
  readonly opening: string;
  readonly businessDate: string;
  readonly domainTitle: string;
  readonly tools: readonly ToolSpec[];
  readonly givenDocuments: readonly KnowledgeDocument[];
  readonly #o: SessionOptions;
  readonly #offered: ReadonlySet<string>;
  readonly #operations: ReadonlySet<string>;
  #calls = 0;
  #turns = 0;
  #end: EndReason | null = null;

  constructor(o: SessionOptions) {
    this.#o = o;
    this.opening = o.opening;
    this.givenDocuments = o.givenDocuments;
    this.businessDate = o.businessDate;
    this.domainTitle = o.domainTitle;
    const world = o.driver.episode.world;
    this.tools = o.toolSpecs ? o.toolSpecs.specs : offeredTools(world, o.tools);
    this.#offered = new Set(this.tools.map((t) => t.name));
    this.#operations = new Set(o.toolSpecs ? o.toolSpecs.operations : [...world.operations.values()].filter(({ op }) => op.side === "agent").map(({ op }) => op.name));
  }

  get maxTurns(): number {
    return this.#o.bounds.maxTurns;
  }

  get over(): boolean {
    return this.#end !== null;
  }

  /** How the episode ended; null while it runs. */
  get end(): EndReason | null {
    return this.#end;
  }

  get turns(): number {
    return this.#turns;
  }

  /** End the episode from outside (the agent returned without finishing). */
  close(end: EndReason): void {
    this.#end ??= end;
  }

  turn(): void {
    if (this.#end) return;
    this.#turns++;
    if (this.#turns > this.#o.bounds.maxTurns) this.#end = "max_turns";
  }

  /** Count one call against the bounds; false (and the episode ends) when no call is left. */
  #spend(): boolean {
    if (this.#end) return false;
    const now = (this.#o.bounds.now ?? Date.now)();
    if (now > this.#o.bounds.deadline) this.#end = "wall_time";
    else if (this.#calls >= this.#o.bounds.maxToolCalls) this.#end = "max_tool_calls";
    if (this.#end) return false;
    this.#calls++;
    return true;
  }

  #overReply(): SessionReply {
    return { content: toolError("episode_over", `the episode is over (${this.#end}); no more calls are carried out`), done: true };
  }

  async call(name: string, args: unknown): Promise<SessionReply> {
    if (typeof name !== "string") name = String(name);
    if (name === "finish" && !this.#end) {
      this.#end = "finished";
      return { content: { finished: true }, done: true };
    }
    if (!this.#spend()) return this.#overReply();
    const episode = this.#o.driver.episode;
    const objectArgs = (args !== null && typeof args === "object" && !Array.isArray(args) ? args : { _args: args ?? null }) as Record<string, unknown>;
    if (name === "send_message") {
      const keys = Object.keys(objectArgs);
      const text = objectArgs.text;
      const bad =
        keys.some((k) => k !== "text") ? `unknown argument "${keys.find((k) => k !== "text")}"` : typeof text !== "string" ? "text must be a string" : text.trim() === "" ? "text is empty" : text.length > MESSAGE_MAX_CHARS ? `text is ${text.length} characters long; at most ${MESSAGE_MAX_CHARS} are accepted` : null;
      if (bad) return this.#reply(episode.refuse({ name, args: objectArgs, actor: "agent" }, "invalid_argument", bad));
      const r = await this.#o.customer.answer(text as string);
      return this.#done({ customer: r.text, ...(r.action ? { customer_action: r.action } : {}) });
    }
    if (!this.#offered.has(name)) {
      const why = this.#operations.has(name) ? `"${name}" is reached through invoke_capability in this evaluation` : `no tool named "${name}" is offered`;
      return this.#reply(episode.refuse({ name, args: objectArgs, actor: "agent" }, "unknown_tool", why));
    }
    const call = { name, args: objectArgs, actor: "agent" as const };
    const layer = this.#o.layer;
    const answered = layer?.answer ? await layer.answer(call) : null;
    if (answered) return this.#reply(answered);
    const outcome = episode.invoke(call);
    const rendered = layer?.render ? await layer.render(call, shown(outcome), outcome, episode.events.length) : null;
    return rendered === null ? this.#reply(outcome) : this.#done(rendered);
  }

  #reply(o: ToolOutcome): SessionReply {
    return this.#done(shown(o));
  }

  #done(content: unknown): SessionReply {
    return { content, done: this.#end !== null };
  }

  /** An action as the offered tools allow it: in discovery mode an operation goes through invoke_capability. */
  #admit(action: EpisodeAction): EpisodeAction | null {
    if (action.type === "open" || action.type === "customer_call" || action.type === "customer_say") return null;
    if (action.type === "call" && this.#o.tools === "discovery" && this.#operations.has(action.name)) {
      return { type: "call", name: "invoke_capability", args: { name: action.name, args: action.args } };
    }
    return action;
  }

  #refused(action: EpisodeAction): ActionStep | null {
    if (action.type !== "call" || this.#offered.has(action.name)) return null;
    const before = this.#o.driver.episode.events.length;
    const outcome = this.#o.driver.episode.refuse({ name: action.name, args: action.args, actor: "agent" }, "unknown_tool", `no tool named "${action.name}" is offered`);
    return { action, events: this.#o.driver.episode.events.slice(before), outcome, reply: null };
  }

  async act(action: EpisodeAction): Promise<ActionStep | null> {
    const a = this.#admit(action);
    if (!a) return null;
    this.turn();
    if (!this.#spend()) return null;
    return this.#refused(a) ?? (await this.#answered(a)) ?? (this.#o.scripted ? this.#o.driver.do(a) : this.#o.driver.doWith(a, this.#o.customer));
  }

  /** Simulated mode: a call or wait the simulator answers, as the step it recorded; null when the runtime answers it. */
  async #answered(action: EpisodeAction): Promise<ActionStep | null> {
    const layer = this.#o.layer;
    if (!layer?.answer || (action.type !== "call" && action.type !== "wait")) return null;
    const call = action.type === "call" ? { name: action.name, args: action.args, actor: "agent" as const } : { name: "wait", args: { minutes: action.minutes }, actor: "agent" as const };
    const before = this.#o.driver.episode.events.length;
    const outcome = await layer.answer(call);
    return outcome ? { action, events: this.#o.driver.episode.events.slice(before), outcome, reply: null } : null;
  }
}
