import type { ScheduledEvent, Trace, TraceEvent, WorldModel } from "../schemas/index.js";
import { LogicalClock } from "../core/clock.js";
import type { InitialState } from "./build-state.js";
import { compileWorld, episodeEvents, type CallKind, type CompiledWorld } from "./compile-world.js";
import { EpisodeConnection, type Isolation } from "./connection.js";
import { FoundryError } from "../core/errors.js";
import { Scheduler, type DueEvent } from "./scheduler.js";
import { TraceRecorder, say, type DialogueMessage } from "./trace-recorder.js";
import { errored, runOperation } from "./run-operation.js";
import { STANDARD_TOOLS, type ToolContext } from "./standard-tools.js";
import { parseArgs } from "./args.js";
import { agentOperation } from "./discovery-tools.js";
import { ToolError } from "./tool-error.js";
import type { KnowledgeDocument } from "./documents-tool.js";
import { stateContentHash } from "./state-hash.js";
import { isStandardTool } from "./tool-names.js";
import type { Invoke, ToolCall, ToolOutcome } from "./types.js";
import { configuredSqlLimits, type SqlLimits } from "./sql-guard.js";
import { worldSqlProblem } from "./world-sql-limits.js";
import { ARG_MAX_CHARS, boundArgs } from "./trace-bounds.js";

/** The parts of a task an episode needs (a full Task fits). */
export interface EpisodeTask {
  id: string;
  scheduled_events?: readonly ScheduledEvent[];
}

export interface EpisodeOptions {
  /** Task the episode runs (its id goes into the trace; its scheduled events join the world's). Default: id `adhoc`, no events. */
  task?: EpisodeTask;
  /** Knowledge base for search_documents / read_document. Default: none. */
  documents?: readonly KnowledgeDocument[];
  /** Trace metadata. Defaults: role `agent`, label "", condition `E0`, seed of the initial state. */
  role?: Trace["role"];
  label?: string;
  condition?: Trace["condition"];
  seed?: number;
  /** Wraps the raw invoke, e.g. the fault layer: `wrap: (inner) => withFaults(inner, plan)`. Default: none. */
  wrap?: (inner: Invoke) => Invoke;
  /** Logical minute the episode starts at. Default 0. */
  start?: number;
  /** `copy`: a fresh database copy, closed at the end (default). `reuse`: a pooled connection rolled back to s0 at the end (see connection.ts). */
  isolation?: Isolation;
  /** Time and size bounds of every SQL statement of the episode (sql-guard.ts). Default: the configuration's `sql_time_limit_ms` / `sql_max_length`. */
  sqlLimits?: SqlLimits;
}

/**
 * One run of a task against its own copy of the initial state. Every call goes through `invoke`
 * (and the optional wrapper), is recorded in the trace, and does not throw for anything the caller
 * did: unknown tools, bad or over-long arguments and SQL errors come back as errored outcomes with
 * no state change. A defect of the world itself — a world statement stopped by the SQL bounds or
 * refused for reading the wall clock — throws its named FoundryError (world-sql-limits.ts).
 */
export class Episode {
  readonly world: CompiledWorld;
  readonly initial: InitialState;
  readonly #conn: EpisodeConnection;
  readonly #clock: LogicalClock;
  readonly #scheduler: Scheduler;
  readonly #recorder: TraceRecorder;
  readonly #invoke: Invoke;
  readonly #documents: readonly KnowledgeDocument[];
  readonly #taskEvents: readonly ScheduledEvent[];
  #closed = false;

  /** Open an episode: its own database copy, clock, event queue and trace. */
  static open(initial: InitialState, world: WorldModel | CompiledWorld, options: EpisodeOptions = {}): Episode {
    return new Episode(initial, "stateTables" in world ? world : compileWorld(world), options);
  }

  private constructor(initial: InitialState, world: CompiledWorld, options: EpisodeOptions) {
    this.world = world;
    this.initial = initial;
    const events = episodeEvents(world, options.task?.scheduled_events ?? []);
    this.#taskEvents = options.task?.scheduled_events ?? [];
    this.#conn = EpisodeConnection.acquire(initial.buffer, world, options.isolation ?? "copy", options.sqlLimits ?? configuredSqlLimits());
    this.#clock = new LogicalClock(options.start ?? 0);
    this.#scheduler = new Scheduler(events);
    this.#documents = options.documents ?? [];
    this.#recorder = new TraceRecorder({
      task: options.task?.id ?? "adhoc",
      role: options.role ?? "agent",
      label: options.label ?? "",
      condition: options.condition ?? "E0",
      seed: options.seed ?? initial.seed,
      initial_state_hash: initial.hash,
    });
    const raw: Invoke = (call) => this.#execute(call);
    this.#invoke = options.wrap ? options.wrap(raw) : raw;
  }

  /** The untraced invoke (what a fault layer wraps); `invoke` is the traced entry point. */
  readonly execute: Invoke = (call) => {
    this.#assertOpen();
    return this.#execute(call);
  };

  get now(): number {
    return this.#clock.now;
  }

  get events(): readonly TraceEvent[] {
    return this.#recorder.events;
  }

  /** Chain hash of the current state (see trace-recorder.ts). */
  get stateHash(): string {
    return this.#recorder.stateHash;
  }

  /** Call a tool or operation as the agent or customer; recorded in the trace. */
  invoke(input: ToolCall): ToolOutcome {
    this.#assertOpen();
    const call = withObjectArgs(input);
    const bounded = boundArgs(call.args);
    if (bounded.tooLong) {
      // Refused before anything (the wrapper included) sees it; the trace keeps a cut marker, which a replay sends back and gets the same refusal.
      const { field, length } = bounded.tooLong;
      const kind: CallKind = this.world.operations.get(call.name)?.kind ?? "tool_call";
      return this.#record({ ...call, args: bounded.args }, call.name === "wait" ? "wait" : kind, errored("invalid_argument", `argument "${field}" is ${length} characters long; at most ${ARG_MAX_CHARS} are accepted`, field));
    }
    if (call.name === "wait") return this.#waitCall(call);
    let target = call;
    if (call.name === "invoke_capability" && call.actor === "agent") {
      const unwrapped = this.#unwrap(call);
      if ("status" in unwrapped) return this.#record(call, "tool_call", unwrapped);
      target = unwrapped;
    }
    const kind: CallKind = this.world.operations.get(target.name)?.kind ?? "tool_call";
    let outcome: ToolOutcome;
    try {
      outcome = this.#invoke(target);
    } catch (e) {
      // A world defect propagates; otherwise only a faulty wrapper can get here (the raw invoke catches everything else).
      if (FoundryError.is(e)) throw e;
      outcome = errored("internal_error", (e as Error).message);
    }
    return this.#record(target, kind, outcome);
  }

  /**
   * Record a call the caller's own rules refuse before it reaches the world (a tool the evaluator
   * does not offer this agent): traced as errored with `code`, nothing runs, the state is unchanged.
   */
  refuse(input: ToolCall, code: string, message: string): ToolOutcome {
    this.#assertOpen();
    const call = withObjectArgs(input);
    return this.#record({ ...call, args: boundArgs(call.args).args }, "tool_call", errored(code, message));
  }

  /**
   * Record an agent call answered outside the runtime (simulated evaluation: the environment
   * simulator's answer, marked `simulated`): nothing runs and the state is unchanged; a `wait`
   * answered so still advances the logical clock by its minutes (no scheduled event fires).
   */
  recordAnswered(input: ToolCall, outcome: ToolOutcome): ToolOutcome {
    this.#assertOpen();
    const call = withObjectArgs(input);
    const kind: TraceEvent["kind"] = call.name === "wait" ? "wait" : (this.world.operations.get(call.name)?.kind ?? "tool_call");
    const answered: ToolOutcome = { ...outcome, changes: [], simulated: true };
    this.#record({ ...call, args: boundArgs(call.args).args }, kind, answered);
    const minutes = call.args.minutes;
    if (call.name === "wait" && outcome.status === "executed" && typeof minutes === "number" && Number.isInteger(minutes) && minutes > 0) this.#clock.advanceTo(this.#clock.now + minutes);
    return answered;
  }

  /** Hybrid evaluation: the simulator's rendering of call event `index`'s result, as the agent read it. */
  recordRendering(index: number, text: string): void {
    this.#assertOpen();
    this.#recorder.recordRendering(index, text);
  }

  /** Advance the clock by `minutes`, firing every scheduled event that falls due, in order. */
  wait(minutes: number, actor: "agent" | "customer" = "agent"): ToolOutcome {
    this.#assertOpen();
    return this.#waitCall({ name: "wait", args: { minutes }, actor });
  }

  /** Record a line of dialogue, with the private facts it discloses. */
  say(message: DialogueMessage): TraceEvent;
  say(actor: "agent" | "customer", text: string, facts?: readonly string[]): TraceEvent;
  say(a: DialogueMessage | "agent" | "customer", text?: string, facts: readonly string[] = []): TraceEvent {
    const msg = typeof a === "string" ? say(a, text ?? "", facts) : a;
    return this.#recorder.recordMessage(this.#clock.now, msg);
  }

  /** The trace so far. */
  finish(): Trace {
    return this.#recorder.finish(this.#clock.now);
  }

  /** Content hash of the current data (same function as InitialState.hash; scans every table). */
  contentHash(): string {
    this.#assertOpen();
    return stateContentHash(this.#conn.db, this.world.stateTables);
  }

  /** Read-only SQL against this episode's state (for checks and tests; not an agent tool). */
  read(sql: string, params: readonly unknown[] = []): Record<string, unknown>[] {
    this.#assertOpen();
    const stmt = this.#conn.db.prepare(sql);
    if (!stmt.reader || !stmt.readonly) throw new TypeError("Episode.read takes a read-only SELECT");
    return stmt.all(...params) as Record<string, unknown>[];
  }

  /** Release the database (closed, or rolled back to s0 and pooled). The trace stays readable. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#conn.close();
  }

  #assertOpen(): void {
    // A pooled connection may already serve another episode: using it after close would corrupt both.
    if (this.#closed) throw new FoundryError("EPISODE_CLOSED", "the episode is closed; open a new one");
  }

  #record(call: ToolCall, kind: TraceEvent["kind"], outcome: ToolOutcome): ToolOutcome {
    this.#recorder.recordCall({ time: this.#clock.now, kind, actor: call.actor, name: call.name, args: call.args ?? {}, outcome });
    return outcome;
  }

  /** `invoke_capability(name, args)` becomes a direct call of the operation (traced under its own name). */
  #unwrap(call: ToolCall): ToolCall | ToolOutcome {
    const spec = STANDARD_TOOLS.get("invoke_capability");
    const parsed = parseArgs(spec!.args, call.args);
    if (!parsed.ok) return errored(parsed.error.code, parsed.error.message, parsed.error.field);
    try {
      agentOperation(this.world, parsed.value.name as string);
    } catch (e) {
      return errored((e as ToolError).code, (e as ToolError).message, "name");
    }
    return { name: parsed.value.name as string, args: (parsed.value.args as Record<string, unknown> | undefined) ?? {}, actor: call.actor };
  }

  /** The raw call: never throws, never leaves a partial change. */
  #execute(call: ToolCall): ToolOutcome {
    try {
      const cop = this.world.operations.get(call.name);
      if (cop) {
        const outcome = runOperation(cop, call, { conn: this.#conn, world: this.world, now: this.#clock.now, index: this.#recorder.nextIndex });
        if (outcome.status === "executed") this.#scheduler.operationExecuted(call.name, this.#clock.now);
        return outcome;
      }
      if (isStandardTool(call.name) && call.name !== "wait" && call.name !== "invoke_capability") return this.#standard(call);
      return errored("unknown_tool", `no tool named "${call.name}"`);
    } catch (e) {
      if (e instanceof ToolError) return { status: "errored", result: e.toResult(), reason: e.field ? `${e.field}: ${e.message}` : e.message, changes: [] };
      if (FoundryError.is(e)) throw e;
      return errored("execution_error", (e as Error).message);
    }
  }

  #standard(call: ToolCall): ToolOutcome {
    if (call.actor !== "agent") return errored("not_permitted", `${call.name} is a tool of the agent; the ${call.actor} cannot call it`);
    const tool = STANDARD_TOOLS.get(call.name as never);
    if (!tool?.run) return errored("unknown_tool", `no tool named "${call.name}"`);
    const parsed = parseArgs(tool.args, call.args);
    if (!parsed.ok) return errored(parsed.error.code, parsed.error.message, parsed.error.field);
    const ctx: ToolContext = { world: this.world, query: this.#conn.query, documents: this.#documents };
    return { status: "executed", result: tool.run(ctx, parsed.value), changes: [] };
  }

  #waitCall(call: ToolCall): ToolOutcome {
    const parsed = parseArgs(STANDARD_TOOLS.get("wait")!.args, call.args);
    if (!parsed.ok) return this.#record(call, "wait", errored(parsed.error.code, parsed.error.message, parsed.error.field));
    const minutes = parsed.value.minutes as number;
    const until = this.#clock.now + minutes;
    const outcome: ToolOutcome = { status: "executed", result: { waited: minutes, now: until }, changes: [] };
    this.#record(call, "wait", outcome);
    for (let due = this.#scheduler.next(until); due; due = this.#scheduler.next(until)) this.#fire(due);
    this.#clock.advanceTo(until);
    return outcome;
  }

  #eventStatement(ev: ScheduledEvent, effect: number): { what: string; path: string } {
    return { what: `scheduled event "${ev.id}" effect ${effect + 1}`, path: eventPath(this.world.world.events, this.#taskEvents, ev, effect) };
  }

  #fire(due: DueEvent): void {
    this.#clock.advanceTo(due.due);
    const now = this.#clock.now;
    const index = this.#recorder.nextIndex;
    const bind = { now: BigInt(now), actor: "system", call: BigInt(index) };
    let outcome: ToolOutcome;
    try {
      const changes = this.#conn.write((ev: ScheduledEvent) => {
        ev.effects.forEach((eff, i) => {
          try {
            this.#conn.statement(eff.sql).run(bind);
          } catch (e) {
            throw worldSqlProblem(e, this.#eventStatement(ev, i), eff.sql, this.#conn.limits) ?? e;
          }
        });
        return this.#conn.takeChanges();
      }, due.event);
      outcome = { status: "executed", result: null, changes };
    } catch (e) {
      if (FoundryError.is(e)) throw e;
      outcome = errored("execution_error", (e as Error).message);
    }
    this.#recorder.recordCall({ time: now, kind: "scheduled_event", actor: "system", name: due.event.id, args: {}, outcome });
    if (outcome.status === "executed") this.#scheduler.eventFired(due.event.id, now);
  }
}

/** Where a scheduled event's effect is: in the world's `events`, or in the task's `scheduled_events`. */
function eventPath(worldEvents: readonly ScheduledEvent[], taskEvents: readonly ScheduledEvent[], ev: ScheduledEvent, effect: number): string {
  const w = worldEvents.indexOf(ev);
  return w >= 0 ? `events[${w}].effects[${effect}].sql` : `scheduled_events[${taskEvents.indexOf(ev)}].effects[${effect}].sql`;
}

/**
 * Arguments that are not an object (a model can send a string or an array) are kept under `_args`,
 * so the trace stays schema-valid and a replay sends exactly the same thing; the call then fails
 * argument parsing (a missing parameter, or the unknown argument `_args`).
 */
function withObjectArgs(call: ToolCall): ToolCall {
  const a: unknown = call.args;
  if (a !== null && typeof a === "object" && !Array.isArray(a)) return call;
  return { ...call, args: { _args: a === undefined ? null : a } };
}
