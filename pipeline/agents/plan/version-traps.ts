import type { SopRule } from "../../schemas/index.js";
import type { DomainContext } from "../../world/domain-context.js";
import { evaluateCondition, type Condition } from "../../sop/condition.js";
import { numbersIn } from "../../../validation/probes/values.js";

/** A clause of a version not in force whose number would flip a decision. */
export interface VersionTrap {
  rule: SopRule;
  value: number;
}

/** The condition with every comparison against `from` made against `to` instead. */
function substitute(c: Condition, from: number, to: number): Condition {
  switch (c.kind) {
    case "compare":
      return c.value === from ? { ...c, value: to } : c;
    case "range":
      return { ...c, min: c.min === from ? to : c.min, max: c.max === from ? to : c.max };
    case "and":
    case "or":
      return { ...c, of: c.of.map((x) => substitute(x, from, to)) };
    case "not":
      return { ...c, of: substitute(c.of, from, to) };
    default:
      return c;
  }
}

/** The numbers a condition compares with, each with the quantity it bounds. */
function numbers(c: Condition): Array<{ quantity: string; n: number }> {
  switch (c.kind) {
    case "compare":
      return [{ quantity: c.quantity, n: c.value }];
    case "range":
      return [{ quantity: c.quantity, n: c.min }, { quantity: c.quantity, n: c.max }];
    case "and":
    case "or":
      return c.of.flatMap(numbers);
    case "not":
      return numbers(c.of);
    default:
      return [];
  }
}

const STOP = new Set(["the", "a", "an", "of", "on", "in", "at", "to", "for", "is", "are", "and", "or", "yes", "no"]);

/** Whether a clause talks about the quantity: it names one of the quantity's words (stems of 4+ letters). */
function about(statement: string, quantity: string): boolean {
  const stem = (w: string) => w.slice(0, Math.max(4, w.length - 2));
  const words = new Set(statement.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2).map(stem));
  return quantity
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !STOP.has(w))
    .some((w) => words.has(stem(w)));
}

/**
 * A version trap in a decision: a clause in force about the condition's quantity states one of its numbers, the same
 * clause in a version not in force (superseded, not yet effective, out of scope) states another in
 * its place, and with that number the condition's verdict on what is known flips. Following the
 * wrong version then leads to another action.
 */
export function versionTrap(ctx: DomainContext, condition: Condition, known: ReadonlyMap<string, unknown>, verdict: boolean): VersionTrap | null {
  for (const { quantity, n } of numbers(condition)) {
    // The clause must be about the condition's quantity: a number that only happens to sit at the
    // same place in an unrelated clause ("level 1" against "History recorded: at least 1") is no trap.
    for (const current of ctx.sop.rules.filter((r) => r.status === "current" && numbersIn(r.statement).includes(n) && about(r.statement, quantity))) {
      const at = numbersIn(current.statement).indexOf(n);
      const others = ctx.sop.rules
        .filter((r) => r.id === current.id && r.document === current.document && r.version !== current.version && r.status !== "current")
        .sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
      for (const other of others) {
        const value = numbersIn(other.statement)[at];
        if (value === undefined || value === n) continue;
        if (evaluateCondition(substitute(condition, n, value), known) === !verdict) return { rule: other, value };
      }
    }
  }
  return null;
}
