import type { Operation } from "../../schemas/index.js";

/** Values known to the solver while it works through a plan, by name. */
export type Bag = Map<string, unknown>;

export type Binding =
  | { ok: true; args: Record<string, unknown>; facts: Array<{ param: string; value: unknown }> }
  | { ok: false; missing: string };

/**
 * Bind an operation's arguments by name: `state` and `agent` parameters from what is known so far
 * (the subject row, the customer, earlier results); `customer` parameters from the customer's
 * private knowledge (`facts`), which the plan must ask for before the call.
 */
export function bindArgs(op: Operation, bag: Bag, customerKnows: ReadonlyMap<string, unknown>, agentNote = "Handled as set out in the applicable procedure.", current: ReadonlyMap<string, unknown> = new Map()): Binding {
  const args: Record<string, unknown> = {};
  const facts: Array<{ param: string; value: unknown }> = [];
  for (const [name, p] of Object.entries(op.params)) {
    if (p.source === "customer") {
      const known = p.type === "array" ? listOf(customerKnows.get(name)) : customerKnows.get(name);
      // With `current`, a known value equal to the row's present value is not what the customer wants.
      const v = current.has(name) && JSON.stringify(known) === JSON.stringify(current.get(name)) ? customerChoice(name, p, current.get(name)) : (known ?? customerChoice(name, p));
      if (v === undefined || v === null) {
        if (p.required) return { ok: false, missing: `${name} (only the customer knows it, and the scenario has no value for it)` };
        continue;
      }
      args[name] = v;
      facts.push({ param: name, value: v });
      continue;
    }
    const v = bag.get(name) ?? (p.source === "agent" && p.type === "string" && !p.enum ? agentNote : undefined);
    if (v === undefined || v === null) {
      if (p.required) return { ok: false, missing: name };
      continue;
    }
    if (p.source === "agent" && p.type === "string" && typeof v !== "string") return { ok: false, missing: name };
    args[name] = v;
  }
  return { ok: true, args, facts };
}

/**
 * A list-valued fact from what the customer knows: a list, or a (hidden) text column holding a JSON
 * list of scalars (`'["L-1", "L-3"]'`, the items a customer wants to return). Anything else: none.
 */
function listOf(v: unknown): unknown[] | undefined {
  let list: unknown = v;
  if (typeof v === "string") {
    try {
      list = JSON.parse(v);
    } catch {
      return undefined;
    }
  }
  return Array.isArray(list) && list.length > 0 && list.every((x) => ["string", "number", "boolean"].includes(typeof x)) ? list : undefined;
}

/** Add a call result's fields to the bag: an object's keys, or the single row of a one-row list. */
export function learn(bag: Bag, result: unknown): void {
  const row = Array.isArray(result) ? (result.length === 1 ? result[0] : undefined) : result;
  if (!row || typeof row !== "object") return;
  for (const [k, v] of Object.entries(row as Record<string, unknown>)) if (v !== null && v !== undefined) bag.set(k, v);
}

/**
 * What a customer says when the world holds no value for a parameter only they can give: the first
 * permitted value of an enumerated parameter, or a plain statement for free text. Numbers and
 * patterned strings have no safe default, so the plan cannot use them. `not` is a value the customer
 * already has (the row's current one): the choice differs from it.
 */
function customerChoice(name: string, p: Operation["params"][string], not?: unknown): unknown {
  if (p.enum && p.enum.length > 0) return p.enum.find((e) => JSON.stringify(e) !== JSON.stringify(not));
  if (p.type === "string" && !p.pattern) {
    const said = `${name.replace(/_/g, " ")} as instructed by the customer`;
    return said === not ? undefined : said;
  }
  return undefined;
}
