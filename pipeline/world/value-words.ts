import type { Param, WorldModel } from "../schemas/index.js";

/**
 * Value labels and units: how people say a parameter's values ("we asked for it" for
 * `client_request`, "6.5 mg/L" for 6.5). The customer states facts in these words, tool specs list
 * them, and an agent maps them back to values. One place for all three, so they cannot drift.
 */

/**
 * The world with every parameter that has no labels (or unit) of its own given those of a column of
 * the same name (the first such column in table order that has them). Pure; returns a new model.
 */
export function inheritValueWords(world: WorldModel): WorldModel {
  const labels = new Map<string, Record<string, string>>();
  const units = new Map<string, string>();
  for (const t of world.tables) {
    for (const c of t.columns) {
      if (c.labels && !labels.has(c.name)) labels.set(c.name, c.labels);
      if (c.unit && !units.has(c.name)) units.set(c.name, c.unit);
    }
  }
  if (labels.size === 0 && units.size === 0) return world;
  const operations = world.operations.map((op) => {
    const params: Record<string, Param> = {};
    for (const [name, p] of Object.entries(op.params)) {
      const l = p.labels ?? labels.get(name);
      const u = p.unit ?? units.get(name);
      params[name] = { ...p, ...(l ? { labels: l } : {}), ...(u ? { unit: u } : {}) };
    }
    return { ...op, params };
  });
  return { ...world, operations };
}

/** One value in the customer's words: its label, else the value followed by the unit. */
export function sayValue(value: unknown, p: Pick<Param, "labels" | "unit">): string {
  const label = p.labels?.[String(value)];
  if (label !== undefined) return label;
  return p.unit !== undefined && typeof value === "number" ? `${String(value)} ${p.unit}` : String(value);
}

/** The value whose label occurs in `text` (the longest label first, so "not asked" beats "asked"); undefined when none. */
export function labelledValueIn(text: string, p: Pick<Param, "labels" | "type" | "items">): string | number | undefined {
  if (!p.labels) return undefined;
  const lower = text.toLowerCase();
  const hit = Object.entries(p.labels)
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .find(([, words]) => lower.includes(words.toLowerCase()));
  if (!hit) return undefined;
  const numeric = p.type === "number" || p.type === "integer" || p.items?.type === "number" || p.items?.type === "integer";
  return numeric ? Number(hit[0]) : hit[0];
}

/** What a tool spec adds to a parameter's description: the unit and the words each value is said in. */
export function valueWordsNote(p: Pick<Param, "labels" | "unit">): string {
  const parts: string[] = [];
  if (p.unit !== undefined) parts.push(`Unit: ${p.unit}.`);
  if (p.labels) parts.push(`Customers say: ${Object.entries(p.labels).map(([v, w]) => `"${w}" for ${v}`).join("; ")}.`);
  return parts.join(" ");
}
