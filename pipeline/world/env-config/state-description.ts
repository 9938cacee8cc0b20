import type { StateDescription } from "../../schemas/env-config.js";
import type { CompiledWorld } from "../compile-world.js";
import { effectWords, hiddenColumns } from "./tool-entries.js";

/** What each visible table and column means and how each agent-side operation changes the state, from the world model. */
export function describeState(world: CompiledWorld): StateDescription {
  const tables = world.world.tables
    .map((t) => ({
      name: t.name,
      meaning: t.description,
      columns: t.columns
        .filter((c) => !c.hidden)
        .map((c) => {
          const extra = [c.type, c.unit ? `in ${c.unit}` : null, c.nullable ? "may be empty" : null, c.references ? `refers to ${c.references}` : null, c.labels ? `values: ${Object.entries(c.labels).map(([v, w]) => `${v} (${w})`).join(", ")}` : null].filter(Boolean);
          return { name: c.name, meaning: `${c.description} [${extra.join("; ")}]` };
        }),
    }))
    .filter((t) => t.columns.length > 0);
  const operations = world.world.operations.filter((o) => o.side === "agent").map((o) => ({ name: o.name, changes: effectWords(o, hiddenColumns(world)) || "reads only; changes nothing" }));
  return {
    tables,
    operations,
    notes:
      "Proposals (operations that record terms for approval) get ids PR-0001, PR-0002, … in the order they are made; the customer approves a proposal outside the agent's tools, and an operation that requires approval consumes one approved proposal with equal terms. Time is a logical clock in minutes from 0; `wait` advances it. A refused call changes nothing.",
  };
}
