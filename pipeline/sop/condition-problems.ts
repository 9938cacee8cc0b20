import { parseCondition, type Condition } from "./condition.js";
import type { WorldIndex } from "./world-index.js";

/** The named quantities a condition compares (compare, range and enumerated cells). */
function quantities(c: Condition): string[] {
  switch (c.kind) {
    case "compare":
    case "range":
    case "in":
      return [c.quantity];
    case "relate":
      return [c.quantity, c.other];
    case "and":
    case "or":
      return c.of.flatMap(quantities);
    case "not":
      return quantities(c.of);
    default:
      return [];
  }
}

/** Words of a quantity as the designer matches them (condition.ts `lookup`). */
function words(quantity: string): string[] {
  return quantity.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 1);
}

/** Every column and parameter name of the world: what a quantity can be matched to. */
function worldNames(world: WorldIndex): string[] {
  return [...world.world.tables.flatMap((t) => t.columns.map((c) => c.name)), ...world.world.operations.flatMap((o) => Object.keys(o.params))];
}

/**
 * Why the task designer cannot evaluate a branch's condition, or null when it can: the text is not
 * in the condition language (sources/README.md), or (with a world) a quantity it compares shares no
 * word with any column or parameter name, so no value can be looked up for it. Such a branch is never
 * taken as true; the designer then tries every branch the world allows, so a person must review it.
 */
export function conditionProblem(when: string, world: WorldIndex | null): string | null {
  if (/^otherwise$/i.test(when.trim())) return null; // a table's catch-all row: the other rows decide
  const parsed = parseCondition(when);
  if (!parsed) return "is not in the condition language (a named quantity compared with a number or another named quantity, a range, enumerated values, and/or, or an event of the last call)";
  if (!world) return null;
  const names = worldNames(world).map((n) => new Set(n.toLowerCase().split("_")));
  const unnamed = quantities(parsed).filter((q) => {
    const ws = words(q);
    return ws.length > 0 && !names.some((n) => ws.some((w) => n.has(w)));
  });
  if (unnamed.length === 0) return null;
  return `compares ${unnamed.map((q) => `"${q}"`).join(", ")}, which no column or parameter of world.yaml is named after`;
}
