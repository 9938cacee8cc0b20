import type { RowPredicate } from "../../../pipeline/schemas/index.js";
import { quote } from "../../../pipeline/core/errors.js";
import { formatList, normalize, sameValue } from "./values.js";

type Row = Record<string, unknown>;

function rhs(p: RowPredicate, row: Row): unknown {
  return p.other_column !== undefined ? row[p.other_column] : p.value;
}

function compare(a: unknown, b: unknown): number | null {
  const x = normalize(a);
  const y = normalize(b);
  if (typeof x === "number" && typeof y === "number") return x - y;
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  // Like SQL, an ordering against null or across types is never true.
  return null;
}

/** Whether `row` satisfies the predicate (SQL-like: comparisons with null are false). */
export function holds(p: RowPredicate, row: Row): boolean {
  const a = row[p.column];
  const b = rhs(p, row);
  switch (p.op) {
    case "=":
      return sameValue(a, b);
    case "!=":
      return !sameValue(a, b);
    case "in":
      return Array.isArray(b) && b.some((v) => sameValue(a, v));
    case "not_in":
      return !(Array.isArray(b) && b.some((v) => sameValue(a, v)));
    case "is_null":
      return normalize(a) === null;
    case "not_null":
      return normalize(a) !== null;
    default: {
      const c = compare(a, b);
      if (c === null) return false;
      if (p.op === "<") return c < 0;
      if (p.op === "<=") return c <= 0;
      if (p.op === ">") return c > 0;
      return c >= 0;
    }
  }
}

/** True when the row satisfies every predicate. */
export function holdsAll(ps: readonly RowPredicate[], row: Row): boolean {
  return ps.every((p) => holds(p, row));
}

/** The first predicate the row breaks, if any. */
export function firstBroken(ps: readonly RowPredicate[], row: Row): RowPredicate | undefined {
  return ps.find((p) => !holds(p, row));
}

function rhsText(p: RowPredicate, row: Row): string {
  if (p.other_column !== undefined) return `${p.other_column} ${quote(row[p.other_column])}`;
  return Array.isArray(p.value) ? formatList(p.value) : quote(p.value ?? null);
}

/** `balance >= reserve_floor`, `status in ["a", "b"]`: a predicate as written. */
export function describePredicate(p: RowPredicate): string {
  if (p.op === "is_null" || p.op === "not_null") return `${p.column} ${p.op === "is_null" ? "is null" : "is not null"}`;
  const right = p.other_column ?? (Array.isArray(p.value) ? formatList(p.value) : quote(p.value ?? null));
  return `${p.column} ${p.op.replace("_", " ")} ${right}`;
}

const ORDERING: ReadonlySet<string> = new Set(["<", "<=", ">", ">="]);

const NEGATION: Record<string, string> = { "=": "!=", "!=": "=", "<": ">=", "<=": ">", ">": "<=", ">=": "<", in: "not in", not_in: "in" };

/** `accounts[ACC-2].balance = 900 < reserve_floor 1000`: how a row breaks a predicate. */
export function describeBreach(ref: string, row: Row, p: RowPredicate): string {
  const value = quote(normalize(row[p.column]));
  if (p.op === "is_null") return `${ref}.${p.column} = ${value}, expected null`;
  if (p.op === "not_null") return `${ref}.${p.column} is null, expected a value`;
  if (ORDERING.has(p.op) && compare(row[p.column], rhs(p, row)) === null) {
    return `${ref}.${p.column} = ${value} cannot be compared with ${rhsText(p, row)} (needs ${describePredicate(p)})`;
  }
  return `${ref}.${p.column} = ${value} ${NEGATION[p.op]} ${rhsText(p, row)}`;
}
