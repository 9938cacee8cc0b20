import type { PrivateFact, Task, Trace, TraceEvent } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { quote } from "../../pipeline/core/errors.js";
import { changedState } from "../checks/index.js";
import { initialStateFor } from "../initial-states.js";
import { touchedRows } from "../touched-rows.js";
import { failed, passed, type GateOutcome } from "./types.js";

const USES: ReadonlySet<string> = new Set(["tool_call", "proposal"]);

function sameLoose(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return false;
  // A list fact against a column holding the list as JSON text (or a list argument): same items, in order.
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(asList(a)) === JSON.stringify(asList(b));
  return String(a) === String(b);
}

function asList(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/** Whether an agent call passes the fact's value (in its `param`, or in any argument when it has none). */
function uses(e: TraceEvent, f: PrivateFact): boolean {
  if (!USES.has(e.kind) || e.actor !== "agent" || !changedState(e)) return false;
  if (f.param !== undefined) return Object.hasOwn(e.args, f.param) && sameLoose(e.args[f.param], f.value);
  // Without a param only distinctive values count: a bare `1` or `true` is everywhere.
  if (typeof f.value === "boolean" || f.value === null || String(f.value).length < 3) return false;
  return Object.values(e.args).some((v) => sameLoose(v, f.value));
}

/**
 * Gate 5: the customer's scenario agrees with the world. A private fact whose `param` names a
 * column of a row the plan touches (hidden columns included) holds that row's s0 value; every fact
 * value the golden trace passes in a call was disclosed by the customer before that call.
 */
export function scenarioConsistencyGate(ctx: DomainContext, task: Task, golden: Trace): GateOutcome {
  const s0 = createCheckContext(ctx.world, task, initialStateFor(ctx, task));
  try {
    let compared = 0;
    for (const f of task.scenario.private_facts) {
      if (f.param === undefined) continue;
      const param = f.param;
      // The rows of the calls that pass this parameter; without such a call, every row the plan touches.
      const callers = golden.events.filter((e) => USES.has(e.kind) && e.actor === "agent" && Object.hasOwn(e.args, param));
      const rows = touchedRows(ctx.world, s0, callers.length > 0 ? callers : golden.events).filter((r) => ctx.world.tables.find((t) => t.name === r.table)?.columns.some((c) => c.name === param));
      const held = rows.map((r) => ({ r, value: s0.initialRow(r.table, r.key)?.[param] })).filter((x) => x.value !== undefined);
      if (held.length === 0) continue;
      compared++;
      if (!held.some((x) => sameLoose(x.value, f.value))) {
        const where = held.map((x) => `${x.r.table}[${String(x.r.key)}].${param} = ${quote(x.value)}`).join(", ");
        return failed("scenario_consistency", `private fact ${f.id} says ${param} = ${quote(f.value)}, but the initial state holds ${where}`, { check: null, event: null, code: "fact_inconsistent", fact: f.id });
      }
    }
    for (const e of golden.events) {
      for (const f of task.scenario.private_facts) {
        if (!uses(e, f)) continue;
        const told = golden.events.find((x) => x.index < e.index && x.actor === "customer" && x.facts.includes(f.id));
        if (!told) {
          return failed("scenario_consistency", `event ${e.index} (${e.name}) passes the value of private fact ${f.id} (${quote(f.value)}) before the customer disclosed it`, { check: null, event: e.index, code: "fact_undisclosed", fact: f.id });
        }
      }
    }
    return passed("scenario_consistency", `${task.scenario.private_facts.length} private facts; ${compared} compared with the initial state and all agree; every fact value used was disclosed first`);
  } finally {
    s0.close();
  }
}
