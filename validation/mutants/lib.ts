import type { AcceptanceCheck, Operation, TraceEvent } from "../../pipeline/schemas/index.js";
import { changedState } from "../checks/index.js";
import type { EpisodeAction, ParsedAction } from "../episode-actions.js";
import type { MutationInput, NotApplicable } from "./types.js";

/** The task's checks of one kind, in check order. */
export function checksOfKind(input: MutationInput, kind: string): AcceptanceCheck[] {
  return input.checks.filter((c) => c.kind === kind);
}

/** A string parameter of a check, or undefined. */
export function param(c: AcceptanceCheck, name: string): unknown {
  return (c.params as Record<string, unknown>)[name];
}

/** The golden actions. */
export function actionsOf(input: MutationInput): EpisodeAction[] {
  return input.parsed.map((p) => p.action);
}

/** The call event an action produced in the golden trace (the first of its events that is a call). */
export function callEvent(input: MutationInput, p: ParsedAction): TraceEvent | undefined {
  return p.events.map((i) => input.golden.events[i - 1]).find((e): e is TraceEvent => e !== undefined && e.kind !== "scheduled_event");
}

/** Positions of golden actions that are calls of `name` which ran (executed), optionally with matching args. */
export function executedCalls(input: MutationInput, name: string, args: Record<string, unknown> = {}): number[] {
  const out: number[] = [];
  input.parsed.forEach((p, i) => {
    const a = p.action;
    if (a.type !== "call" || a.name !== name) return;
    const e = callEvent(input, p);
    if (!e || !changedState(e) || e.kind === "proposal") return;
    if (Object.entries(args).every(([k, v]) => Object.hasOwn(a.args, k) && String(a.args[k]) === String(v))) out.push(i);
  });
  return out;
}

/** The world operation named `name`. */
export function operation(input: MutationInput, name: string): Operation | undefined {
  return input.ctx.world.operations.find((o) => o.name === name);
}

/** `actions` with `item` inserted at `at`. */
export function insertAt<T>(list: readonly T[], at: number, ...items: T[]): T[] {
  return [...list.slice(0, at), ...items, ...list.slice(at)];
}

/** `actions` without the positions in `drop`. */
export function without<T>(list: readonly T[], drop: ReadonlySet<number>): T[] {
  return list.filter((_, i) => !drop.has(i));
}

/** Move the element at `from` to just before the element now at `before`; returns the list and the moved element's new position. */
export function moveBefore<T>(list: readonly T[], from: number, before: number): { list: T[]; at: number } {
  const item = list[from] as T;
  const rest = list.filter((_, i) => i !== from);
  const at = before > from ? before - 1 : before;
  return { list: insertAt(rest, at, item), at };
}

/** A not-applicable entry. */
export function na(operator: string, reason: string): NotApplicable {
  return { operator, reason };
}

/** Default value of a parameter nobody supplied (a mutant only needs a well-formed call). */
export function placeholder(p: { type: string; minimum?: number | undefined; enum?: ReadonlyArray<string | number> | undefined }): unknown {
  if (p.type === "array") return [];
  if (p.enum && p.enum.length > 0) return p.enum[0];
  if (p.type === "boolean") return false;
  if (p.type === "integer" || p.type === "number") return Math.max(1, p.minimum ?? 1);
  return "validation probe";
}

/** A value for parameter `name` taken from the golden calls, then from the scenario's facts. */
export function goldenValue(input: MutationInput, name: string): unknown {
  for (const p of input.parsed) if (p.action.type === "call" && Object.hasOwn(p.action.args, name)) return p.action.args[name];
  return input.task.scenario.private_facts.find((f) => f.param === name)?.value;
}
