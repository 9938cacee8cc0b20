import type { Task, Trace } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { FoundryError, quote } from "../../pipeline/core/errors.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { ident } from "../../pipeline/world/schema-sql.js";
import { changedState } from "../checks/index.js";
import { EpisodeDriver, parseActions, type EpisodeAction } from "../episode-actions.js";
import { judge } from "../judge.js";
import { factChanges, type FactChange } from "../modified-facts/candidates.js";
import { failed, passed, type GateOutcome } from "./types.js";

/** What one modified fact did to the golden actions and their judgment. */
export interface FactTrial {
  change: FactChange;
  /**
   * A call the golden trace executed that the world now refuses, when that changes the outcome (the
   * rows the golden trace changed end differently): the value crossed a threshold. Null otherwise;
   * a refused call that was merely redundant (its effect already held) is no crossing.
   */
  crossed: { event: number; name: string; reason: string } | null;
  /** Checks that passed on the golden trace and fail now. */
  flipped: string[];
}

export interface ModifiedFactsGate extends GateOutcome {
  trials: FactTrial[];
}

const ref = (c: FactChange) => `${c.table}[${String(c.key)}].${c.column} ${quote(c.from)} → ${quote(c.to)}`;

type Outcome = Array<[string, string | number, Record<string, unknown> | null]>;

/** Rows the golden trace changed, as the episode holds them now. */
function outcome(driver: EpisodeDriver, ctx: DomainContext, golden: Trace): Outcome {
  const refs = new Map<string, { table: string; key: string | number }>();
  for (const e of golden.events.filter(changedState)) for (const c of e.changes) if (!c.table.startsWith("_")) refs.set(`${c.table}\u0000${String(c.key)}`, { table: c.table, key: c.key });
  const rows = [...refs.values()].map(({ table, key }) => {
    const t = ctx.world.tables.find((x) => x.name === table);
    const row = t ? (driver.read(`SELECT * FROM ${ident(t.name)} WHERE ${ident(t.primary_key)} = ?`, [key])[0] ?? null) : null;
    return [table, key, row] as Outcome[number];
  });
  return rows;
}

/** Two outcomes compared without the modified column (which differs by construction). */
function sameOutcome(a: Outcome, b: Outcome, skip: FactChange): boolean {
  const strip = (o: Outcome) =>
    canonicalJson(o.map(([t, k, row]) => [t, k, row && t === skip.table && String(k) === String(skip.key) ? Object.fromEntries(Object.entries(row).filter(([c]) => c !== skip.column)) : row]));
  return strip(a) === strip(b);
}

/** Run actions on a task and return the trace, what each action recorded, and the outcome rows. */
function run(ctx: DomainContext, task: Task, actions: readonly EpisodeAction[], golden: Trace, label: string) {
  const driver = EpisodeDriver.open(ctx, task, { role: "violation", label });
  try {
    const steps = actions.map((a) => driver.do(a));
    return { trace: driver.finish(), steps, outcome: outcome(driver, ctx, golden) };
  } finally {
    driver.close();
  }
}

/** Re-run the golden actions on the task with one fact changed. */
function trial(ctx: DomainContext, task: Task, golden: Trace, base: { failed: ReadonlySet<string>; outcome: Outcome }, change: FactChange): FactTrial | null {
  const table = ctx.world.tables.find((t) => t.name === change.table);
  if (!table) return null;
  const moved: Task = { ...task, initial_state: [...task.initial_state, { table: change.table, op: "upsert", row: { [table.primary_key]: change.key, [change.column]: change.to } }] };
  const parsed = parseActions(golden);
  let r;
  try {
    r = run(ctx, moved, parsed.map((p) => p.action), golden, `modified_fact ${ref(change)}`);
  } catch (e) {
    // A value the schema refuses (e.g. a NOT NULL column) is not a fact the world can hold.
    if (FoundryError.is(e)) return null;
    throw e;
  }
  let crossed: FactTrial["crossed"] = null;
  if (!sameOutcome(r.outcome, base.outcome, change)) {
    parsed.forEach((p, i) => {
      if (crossed || (p.action.type !== "call" && p.action.type !== "customer_call")) return;
      const was = golden.events[(p.events[0] ?? 0) - 1];
      const now = r.steps[i]?.events.find((e) => e.kind !== "scheduled_event");
      if (was?.status === "executed" && now && now.status !== "executed") crossed = { event: now.index, name: now.name, reason: now.reason ?? now.status };
    });
  }
  const j = judge(ctx, moved, r.trace);
  return { change, crossed, flipped: j.failed.filter((id) => !base.failed.has(id)) };
}

/**
 * Gate 4: modified facts flip the judgment. Each candidate moves a value that decides validity
 * across its threshold (see modified-facts/candidates.ts) and re-runs the golden actions. When the
 * world then refuses a call the golden trace made and the outcome differs, the prediction is that
 * the task's judgment changes: some check that passed must now fail. A crossing that leaves every check passing means
 * the checks do not look at what decided validity.
 */
export function modifiedFactsGate(ctx: DomainContext, task: Task, golden: Trace): ModifiedFactsGate {
  const actions = parseActions(golden).map((p) => p.action);
  const base = { failed: new Set(judge(ctx, task, golden).failed), outcome: run(ctx, task, actions, golden, "golden").outcome };
  const trials = factChanges(ctx, task, golden)
    .map((c) => trial(ctx, task, golden, base, c))
    .filter((t): t is FactTrial => t !== null);
  const crossing = trials.filter((t) => t.crossed !== null);
  const flippedCrossing = crossing.filter((t) => t.flipped.length > 0);
  const other = trials.filter((t) => t.crossed === null && t.flipped.length > 0).length;
  const summary = `tried ${trials.length} modified facts: ${crossing.length} crossed a threshold the world enforces, ${flippedCrossing.length} of them flipped the judgment; ${other} others flipped a check without a refusal`;
  const miss = crossing.find((t) => t.flipped.length === 0);
  if (miss?.crossed) {
    const detail = `${summary}. ${ref(miss.change)} (${miss.change.why}) made the world refuse ${miss.crossed.name} at event ${miss.crossed.event} (${miss.crossed.reason}), yet every check still passes`;
    return { ...failed("modified_facts", detail, { check: null, event: miss.crossed.event, code: "judgment_not_flipped" }), trials };
  }
  const shown = flippedCrossing.slice(0, 3).map((t) => `${ref(t.change)} → ${t.flipped.join(", ")}`);
  return { ...passed("modified_facts", `${summary}${shown.length > 0 ? ` (e.g. ${shown.join("; ")})` : ""}`), trials };
}
