import type { AcceptanceCheck, Table } from "../../pipeline/schemas/index.js";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { initialStateFor } from "../initial-states.js";
import type { EpisodeAction } from "../episode-actions.js";
import type { MutantPlan, MutationInput, MutationOperator, NotApplicable } from "./types.js";
import { actionsOf, checksOfKind, goldenValue, na, param, placeholder } from "./lib.js";
import { afterGolden, callText, keyParams, readRow, writersOf } from "./simulate.js";

const NAME = "touch_protected_object";
const ROWS_PER_TABLE = 2;

interface Target {
  check: AcceptanceCheck;
  table: Table;
  key: string | number;
}

/** Rows a check protects: its listed keys, or a few rows of other customers (tables the golden writes first). */
function targets(input: MutationInput, c: AcceptanceCheck): Target[] {
  const world = input.ctx.world;
  if (c.kind === "protected_rows_unchanged") {
    const table = world.tables.find((t) => t.name === param(c, "table"));
    return table ? ((param(c, "keys") as Array<string | number>) ?? []).map((key) => ({ check: c, table, key })) : [];
  }
  const watched = (param(c, "tables") as string[] | undefined) ?? world.tables.filter((t) => t.owner_column || t.name === world.customer_table).map((t) => t.name);
  const written = new Set(input.golden.events.flatMap((e) => e.changes.map((x) => x.table)));
  const order = [...watched].sort((a, b) => Number(written.has(b)) - Number(written.has(a)));
  const s0 = createCheckContext(world, input.task, initialStateFor(input.ctx, input.task));
  try {
    return order.flatMap((name) => {
      const table = world.tables.find((t) => t.name === name);
      if (!table) return [];
      const foreign = s0.initialKeys(name).filter((k) => {
        const owner = table.owner_column ? s0.initialRow(name, k)?.[table.owner_column] : k;
        return owner !== null && owner !== undefined && String(owner) !== input.task.customer_id;
      });
      return foreign.slice(0, ROWS_PER_TABLE).map((key) => ({ check: c, table, key }));
    });
  } finally {
    s0.close();
  }
}

/** The first write the world offers that changes the target row after the golden actions. */
function touch(input: MutationInput, t: Target): { call: EpisodeAction; text: string } | { tried: string[] } {
  const tried: string[] = [];
  for (const op of writersOf(input, t.table.name)) {
    const keys = keyParams(op, t.table, t.key);
    if (keys.length === 0) continue;
    const args: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(op.params)) {
      if (keys.includes(name)) args[name] = t.key;
      else if (!p.required) continue;
      else args[name] = goldenValue(input, name) ?? placeholder(p);
    }
    const call: EpisodeAction = { type: "call", name: op.name, args };
    const result = afterGolden(input, (d) => {
      const before = readRow(d, t.table, t.key);
      const step = d.do(call);
      const after = readRow(d, t.table, t.key);
      return { status: step.outcome?.status ?? "errored", reason: step.outcome?.reason, changed: canonicalJson(before) !== canonicalJson(after) };
    });
    if (result.status === "executed" && result.changed) return { call, text: callText(op.name, args) };
    tried.push(`${callText(op.name, args)}: ${result.status === "executed" ? "ran without changing the row" : `${result.status}${result.reason ? ` (${result.reason})` : ""}`}`);
  }
  return { tried };
}

export const touchProtectedObject: MutationOperator = {
  name: NAME,
  description: "After finishing the task, the agent changes a protected row or another customer's row with a write the world offers.",
  targets: ["protected_rows_unchanged", "other_customers_untouched"],
  generate(input) {
    const checks = [...checksOfKind(input, "protected_rows_unchanged"), ...checksOfKind(input, "other_customers_untouched")];
    if (checks.length === 0) return [na(NAME, "the task has no protected_rows_unchanged or other_customers_untouched check")];
    const out: Array<MutantPlan | NotApplicable> = [];
    for (const c of checks) {
      const tried: string[] = [];
      let found: MutantPlan | null = null;
      for (const t of targets(input, c)) {
        const r = touch(input, t);
        if ("call" in r) {
          const actions = [...actionsOf(input), r.call];
          found = { operator: NAME, target_check: c.id, description: `${r.text} changed ${t.table.name}[${String(t.key)}]`, actions, mutated: [actions.length - 1], refusalIsEquivalent: true };
          break;
        }
        tried.push(...r.tried);
      }
      out.push(found ?? na(NAME, `check ${c.id}: no write the world offers (without approval) changed a protected row${tried.length > 0 ? `; tried ${tried.join("; ")}` : " (no write takes its key)"}`));
    }
    return out;
  },
};
