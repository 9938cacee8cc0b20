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
function numbers(c: Condition): Array<{ quantity: string; n: number; unit: string | null }> {
  switch (c.kind) {
    case "compare":
      return [{ quantity: c.quantity, n: c.value, unit: c.unit }];
    case "range":
      return [{ quantity: c.quantity, n: c.min, unit: c.unit }, { quantity: c.quantity, n: c.max, unit: c.unit }];
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

/**
 * Whether a clause talks about the quantity: it names one of the quantity's words (stems of 4+
 * letters), or it states the number with the condition's currency or unit ("more than EUR
 * 250,000.00" for "the amount is above EUR 250,000.00").
 */
function about(statement: string, quantity: string, n: number, unit: string | null): boolean {
  if (unit) {
    const t = tokens(statement);
    if (t.some((x, i) => x === n && (t[i - 1] === unit.toLowerCase() || t[i + 1] === unit.toLowerCase()))) return true;
  }
  const stem = (w: string) => w.slice(0, Math.max(4, w.length - 2));
  const words = new Set(statement.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 2).map(stem));
  return quantity
    .toLowerCase()
    .replace(/\([^)]*\)/g, " ")
    .split(/[^a-z]+/)
    .filter((w) => w.length > 2 && !STOP.has(w))
    .some((w) => words.has(stem(w)));
}

/** Words and numbers of a clause, numbers as values (`EUR 20,000.00` → "EUR", 20000). */
function tokens(text: string): Array<string | number> {
  return [...text.matchAll(/\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[A-Za-z]+/g)].map((m) => (/\d/.test(m[0]) ? Number(m[0].replace(/,/g, "")) : m[0].toLowerCase()));
}

/**
 * The number the other version states where the current one states `n`: the two clauses' words
 * are aligned (longest common subsequence), and `n` must sit in a stretch the other version
 * replaced, opposite a number in the same position of that stretch. An `n` both versions state in
 * the same place ("30 minutes at level 3" in both) has no replacement, whatever moved around it.
 */
export function replacedNumber(current: string, other: string, n: number): number | undefined {
  const a = tokens(current), b = tokens(other);
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  // Walk the alignment; collect replaced stretches (a[i0..i) against b[j0..j)).
  let i = 0, j = 0;
  const stretches: Array<{ a: Array<string | number>; b: Array<string | number> }> = [];
  let open: { a: Array<string | number>; b: Array<string | number> } | null = null;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      if (open) stretches.push(open);
      open = null;
      i++, j++;
    } else {
      open ??= { a: [], b: [] };
      if (j >= b.length || (i < a.length && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) open.a.push(a[i++]!);
      else open.b.push(b[j++]!);
    }
  }
  if (open) stretches.push(open);
  for (const st of stretches) {
    const na = st.a.filter((t): t is number => typeof t === "number");
    const nb = st.b.filter((t): t is number => typeof t === "number");
    const k = na.indexOf(n);
    if (k >= 0 && na.length === nb.length) return nb[k];
  }
  return undefined;
}

/**
 * A version trap in a decision: a clause in force about the condition's quantity states one of its numbers, the same
 * clause in a version not in force (superseded, not yet effective, out of scope) states another in
 * its place, and with that number the condition's verdict on what is known flips. Following the
 * wrong version then leads to another action.
 */
export function versionTrap(ctx: DomainContext, condition: Condition, known: ReadonlyMap<string, unknown>, verdict: boolean): VersionTrap | null {
  for (const { quantity, n, unit } of numbers(condition)) {
    // The clause must be about the condition's quantity: a number that only happens to sit at the
    // same place in an unrelated clause ("level 1" against "History recorded: at least 1") is no trap.
    for (const current of ctx.sop.rules.filter((r) => r.status === "current" && numbersIn(r.statement).includes(n) && about(r.statement, quantity, n, unit))) {
      const others = ctx.sop.rules
        .filter((r) => r.id === current.id && r.document === current.document && r.version !== current.version && r.status !== "current")
        .sort((a, b) => a.version.localeCompare(b.version, undefined, { numeric: true }));
      for (const other of others) {
        const value = replacedNumber(current.statement, other.statement, n);
        if (value === undefined || value === n) continue;
        if (evaluateCondition(substitute(condition, n, value), known) === !verdict) return { rule: other, value };
      }
    }
  }
  return null;
}
