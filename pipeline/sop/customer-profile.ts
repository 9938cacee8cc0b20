import type { WorldModel } from "../schemas/world-model.js";
import type { CustomerProfile } from "./select-rules.js";

const AXIS_COLUMNS = { segments: "segment", regions: "region", products: "product" } as const;

/**
 * The domain's default customer profile, read from world.yaml: for each axis, the values the
 * customer table's `segment`, `region` and `product` columns can take (fixed rows and `choice`
 * generators). An axis without such a column is unknown and restricts nothing.
 */
export function defaultProfile(world: WorldModel | null): CustomerProfile {
  const table = world?.tables.find((t) => t.name === world.customer_table);
  const out: CustomerProfile = {};
  if (!table) return out;
  for (const [axis, column] of Object.entries(AXIS_COLUMNS) as Array<[keyof CustomerProfile, string]>) {
    if (!table.columns.some((c) => c.name === column)) continue;
    const values = new Set<string>();
    for (const row of table.rows) {
      const v = row[column];
      if (typeof v === "string") values.add(v);
    }
    const g = table.generate?.fields[column];
    if (g && "choice" in g) for (const v of g.choice) if (typeof v === "string") values.add(v);
    if (g && "const" in g && typeof g.const === "string") values.add(g.const);
    // A column whose values cannot be listed (e.g. a faker generator) leaves the axis unknown.
    const listable = !g || "choice" in g || "const" in g;
    if (values.size > 0 && listable) out[axis] = [...values].sort();
  }
  return out;
}
