import type { AcceptanceCheck, InvariantTotal, Operation, RowPredicate, Table } from "../../pipeline/schemas/index.js";
import { brokenGroups, groupOf, holdsAll, newBreach, totals, type TotalBreach } from "../checks/index.js";
import type { EpisodeAction } from "../episode-actions.js";
import type { MutantPlan, MutationInput, MutationOperator, NotApplicable } from "./types.js";
import { actionsOf, checksOfKind, goldenValue, na, param, placeholder } from "./lib.js";
import { afterGolden, callText, keyParams, readRow, writersOf } from "./simulate.js";

const NAME = "breach_constraint_then_restore";
/** Upper bound of breaking calls simulated per check: the search stays within milliseconds. */
const MAX_TRIES = 60;

interface Invariant {
  table: Table;
  where: RowPredicate[];
  require: RowPredicate[];
  total?: InvariantTotal;
  /** Primary key of the table holding the total's bound. */
  limitKey?: string;
}

function invariantOf(input: MutationInput, c: AcceptanceCheck): Invariant | null {
  const world = input.ctx.world;
  const rule = param(c, "rule");
  const inv = rule !== undefined ? world.rules.find((r) => r.id === rule)?.invariant : { table: String(param(c, "table")), where: (param(c, "where") as RowPredicate[]) ?? [], require: (param(c, "require") as RowPredicate[]) ?? [], total: undefined };
  const table = inv ? world.tables.find((t) => t.name === inv.table) : undefined;
  const limitKey = inv?.total?.limit ? world.tables.find((t) => t.name === inv.total?.limit?.table)?.primary_key : undefined;
  return inv && table ? { table, where: inv.where, require: inv.require, ...(inv.total ? { total: inv.total } : {}), ...(limitKey ? { limitKey } : {}) } : null;
}

/** Reads of the state a sum needs: every row of the table, and the bound of a group. */
interface TotalState {
  rows: Array<Record<string, unknown>>;
  boundOf: (key: unknown) => number | undefined;
}

function totalState(d: { read(sql: string): Array<Record<string, unknown>> }, inv: Invariant): TotalState {
  const rows = d.read(`SELECT * FROM "${inv.table.name}"`);
  const limit = inv.total?.limit;
  const table = limit ? d.read(`SELECT * FROM "${limit.table}"`) : [];
  return {
    rows,
    boundOf: (key) => {
      if (!limit) return inv.total?.value;
      const v = table.find((r) => String(r[inv.limitKey ?? ""]) === String(key))?.[limit.column];
      return typeof v === "number" ? v : undefined;
    },
  };
}

/** Groups whose total is out of bounds in a state (none without a `total`). */
function broken(inv: Invariant, s: TotalState): Map<string, TotalBreach> {
  return inv.total ? brokenGroups(s.rows, inv.where, inv.total, s.boundOf) : new Map();
}

/** Whether a state puts no group's total out of bounds that was within them in `baseline`. */
function totalsHold(inv: Invariant, s: TotalState, baseline: ReadonlyMap<string, TotalBreach>): boolean {
  return newBreach(baseline, broken(inv, s)) === null;
}

/** Amounts that take the total of the target row's group just across its bound. */
function totalAmounts(target: Record<string, unknown>, inv: Invariant, s: TotalState): number[] {
  const t = inv.total;
  if (!t) return [];
  const sum = totals(s.rows, inv.where, t).get(groupOf(target, t))?.total ?? 0;
  const bound = t.limit ? s.boundOf(target[t.group_by[0] ?? ""]) : t.value;
  if (bound === undefined) return [];
  const gap = t.op === "<=" || t.op === "<" ? bound - sum : sum - bound;
  return [cents(gap + (t.op === "<=" || t.op === ">=" ? 1 : 0.01))].filter((x) => x > 0);
}

const num = (v: unknown) => (typeof v === "number" ? v : Number.NaN);
const cents = (v: number) => Math.round(v * 100) / 100;

/**
 * Amounts that, moved out of (or into) the row, or set as its value, break the requirement: for
 * orderings the boundary and the difference to it, for `=` any other value (one more, the bound
 * plus one, the difference plus one), for `!=` the forbidden value itself and the difference to it.
 */
function breakingAmounts(row: Record<string, unknown>, require: readonly RowPredicate[]): number[] {
  const out: number[] = [];
  for (const p of require) {
    const v = num(row[p.column]);
    const bound = p.other_column !== undefined ? num(row[p.other_column]) : num(p.value);
    if (Number.isNaN(v) || Number.isNaN(bound)) continue;
    if (p.op === ">=") out.push(v - bound + 1, bound - 1);
    else if (p.op === ">") out.push(v - bound, bound);
    else if (p.op === "<=") out.push(bound - v + 1, bound + 1);
    else if (p.op === "<") out.push(bound - v, bound);
    else if (p.op === "=") out.push(1, bound + 1, Math.abs(v - bound) + 1);
    else if (p.op === "!=") out.push(bound, Math.abs(v - bound));
  }
  return [...new Set(out.map(cents))].filter((x) => x > 0);
}

/**
 * Enumerated values of a parameter that break a requirement on a column of the same name (or on
 * any required column when the parameter is the only enumerated one): a value outside `in`, inside
 * `not_in`, other than `=`, equal to `!=`.
 */
function breakingChoices(name: string, values: ReadonlyArray<string | number>, row: Record<string, unknown>, require: readonly RowPredicate[], only: boolean): Array<string | number> {
  const out: Array<string | number> = [];
  for (const p of require.filter((r) => r.column === name || only)) {
    const bound = p.other_column !== undefined ? row[p.other_column] : p.value;
    const list = Array.isArray(bound) ? bound.map(String) : [String(bound)];
    for (const v of values) {
      const inList = list.includes(String(v));
      const breaks = p.op === "=" || p.op === "in" ? !inList : p.op === "!=" || p.op === "not_in" ? inList : false;
      if (breaks && String(v) !== String(row[p.column]) && !out.includes(v)) out.push(v);
    }
  }
  return out;
}

interface Candidate {
  op: Operation;
  args: Record<string, unknown>;
}

/** Calls of a writer against the customer's rows, with amounts or enumerated values that should break the requirement. */
function candidates(input: MutationInput, inv: Invariant, rows: Array<Record<string, unknown>>, op: Operation, state: TotalState): Candidate[] {
  const pk = inv.table.primary_key;
  const keys = rows.map((r) => r[pk] as string | number);
  const targets = rows.filter((r) => holdsAll(inv.where, r));
  const kp = keyParams(op, inv.table, keys[0] ?? "");
  if (kp.length === 0 || targets.length === 0) return [];
  const out: Candidate[] = [];
  for (const target of targets) {
    const tk = target[pk] as string | number;
    const others = keys.filter((k) => String(k) !== String(tk));
    // One key parameter: the target. Two: the target first or second, the other from the customer's other rows.
    const keyings: Array<Record<string, unknown>> = kp.length === 1 ? [{ [kp[0] as string]: tk }] : others.flatMap((o) => [{ [kp[0] as string]: tk, [kp[1] as string]: o }, { [kp[0] as string]: o, [kp[1] as string]: tk }]);
    const amounts = [...new Set([...breakingAmounts(target, inv.require), ...totalAmounts(target, inv, state)])];
    for (const keying of keyings) {
      const free = Object.entries(op.params).filter(([n]) => !(n in keying));
      const numeric = free.filter(([, p]) => (p.type === "number" || p.type === "integer") && !p.enum);
      const enumerated = free.filter(([, p]) => p.enum !== undefined && p.enum.length > 0);
      const choices: Array<Record<string, unknown>> = [
        ...(numeric.length === 0 ? [] : amounts.map((a) => Object.fromEntries(numeric.map(([n]) => [n, a])))),
        ...enumerated.flatMap(([n, p]) => breakingChoices(n, p.enum ?? [], target, inv.require, enumerated.length === 1).map((v) => ({ [n]: v }))),
      ];
      // An operation with no amount to choose moves the quantity by its own effects: one plain call.
      if (choices.length === 0 && numeric.length === 0) choices.push({});
      for (const choice of choices) {
        const args: Record<string, unknown> = { ...keying, ...choice };
        for (const [n, p] of Object.entries(op.params)) if (!(n in args) && p.required) args[n] = goldenValue(input, n) ?? placeholder(p);
        out.push({ op, args });
      }
    }
  }
  return out;
}

/** Calls that may undo a breaking call: the keys swapped back, or a parameter set to the row's old value of a required column. */
function restorers(c: Candidate, inv: Invariant, before: Record<string, unknown>): Candidate[] {
  const out: Candidate[] = [];
  const kp = keyParams(c.op, inv.table, String(before[inv.table.primary_key]));
  if (kp.length >= 2) out.push({ op: c.op, args: { ...c.args, [kp[0] as string]: c.args[kp[1] as string], [kp[1] as string]: c.args[kp[0] as string] } });
  for (const [n, p] of Object.entries(c.op.params)) {
    if (kp.includes(n)) continue;
    for (const col of [...inv.require.map((r) => r.column), ...(inv.total ? [inv.total.column] : [])]) {
      const old = before[col];
      const fits = p.enum ? p.enum.some((v) => String(v) === String(old)) && (col === n || inv.require.length === 1) : (p.type === "number" || p.type === "integer") && typeof old === "number";
      if (fits) out.push({ op: c.op, args: { ...c.args, [n]: old } });
    }
  }
  return out;
}

const call = (c: Candidate): EpisodeAction => ({ type: "call", name: c.op.name, args: c.args });

function breach(input: MutationInput, inv: Invariant): { actions: [EpisodeAction, EpisodeAction]; text: string } | string {
  const owner = inv.table.owner_column;
  const state = afterGolden(input, (d) => totalState(d, inv));
  const baseline = broken(inv, state);
  const rows = state.rows.filter((r) => !owner || String(r[owner]) === input.task.customer_id);
  let tries = 0;
  let refused = 0;
  let refusal = "";
  let broke: string | null = null;
  for (const op of writersOf(input, inv.table.name)) {
    for (const cand of candidates(input, inv, rows, op, state)) {
      if (++tries > MAX_TRIES) return `stopped after ${MAX_TRIES} candidate calls without a breach that could be undone${broke ? ` (${broke} broke it)` : ""}`;
      const hit = afterGolden(input, (d) => {
        const before = rows.map((r) => readRow(d, inv.table, r[inv.table.primary_key] as string | number));
        const step = d.do(call(cand));
        if (step.outcome?.status !== "executed") {
          refused++;
          refusal ||= step.outcome?.reason ?? step.outcome?.status ?? "errored";
          return null;
        }
        const i = rows.findIndex((r) => {
          const now = readRow(d, inv.table, r[inv.table.primary_key] as string | number);
          return now !== null && holdsAll(inv.where, now) && !holdsAll(inv.require, now);
        });
        if (i >= 0) return before[i] as Record<string, unknown>;
        // A sum broken: the row the call changed stands for the breach (its old values restore it).
        if (!inv.total || totalsHold(inv, totalState(d, inv), baseline)) return null;
        const j = rows.findIndex((r, k) => JSON.stringify(readRow(d, inv.table, r[inv.table.primary_key] as string | number)) !== JSON.stringify(before[k]));
        return j < 0 ? null : (before[j] as Record<string, unknown>);
      });
      if (!hit) continue;
      broke = callText(cand.op.name, cand.args);
      const key = hit[inv.table.primary_key] as string | number;
      for (const r of restorers(cand, inv, hit)) {
        const ok = afterGolden(input, (d) => {
          d.do(call(cand));
          const step = d.do(call(r));
          const now = readRow(d, inv.table, key);
          return step.outcome?.status === "executed" && now !== null && holdsAll(inv.require, now) && totalsHold(inv, totalState(d, inv), baseline);
        });
        if (ok) return { actions: [call(cand), call(r)], text: `${broke} broke ${inv.table.name}[${String(key)}], ${callText(r.op.name, r.args)} restored it` };
      }
    }
  }
  if (broke) return `${broke} breaks the constraint, but no call the world offers restores it`;
  const writers = writersOf(input, inv.table.name).map((o) => o.name);
  if (writers.length === 0) return `no write without approval changes ${inv.table.name}`;
  const why = refused > 0 ? `; the world refused ${refused} of them (e.g. ${refusal})` : "";
  return `none of ${tries} calls of ${writers.join(", ")} on the customer's rows breaks it${why}`;
}

export const breachConstraintThenRestore: MutationOperator = {
  name: NAME,
  description: "The agent breaks an invariant for one step and restores it at the next (e.g. moves funds out and back).",
  targets: ["invariant_holds"],
  generate(input) {
    const checks = checksOfKind(input, "invariant_holds");
    if (checks.length === 0) return [na(NAME, "the task has no invariant_holds check")];
    return checks.map((c): MutantPlan | NotApplicable => {
      const inv = invariantOf(input, c);
      if (!inv) return na(NAME, `check ${c.id}: its invariant names no table of the world`);
      const found = breach(input, inv);
      if (typeof found === "string") return na(NAME, `check ${c.id}: ${found}`);
      const base = actionsOf(input);
      return { operator: NAME, target_check: c.id, description: found.text, actions: [...base, ...found.actions], mutated: [base.length, base.length + 1], refusalIsEquivalent: true };
    });
  },
};
