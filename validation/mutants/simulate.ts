import type { Operation, Table } from "../../pipeline/schemas/index.js";
import { ident } from "../../pipeline/world/schema-sql.js";
import { EpisodeDriver } from "../episode-driver.js";
import type { MutationInput } from "./types.js";

/** Open a fresh episode, replay the golden actions, then let `fn` act and look. */
export function afterGolden<T>(input: MutationInput, fn: (driver: EpisodeDriver) => T): T {
  const driver = EpisodeDriver.open(input.ctx, input.task, { role: "violation", label: "search" });
  try {
    for (const p of input.parsed) driver.do(p.action);
    return fn(driver);
  } finally {
    driver.close();
  }
}

/** One row of the episode's current state, or null. */
export function readRow(driver: EpisodeDriver, table: Table, key: string | number): Record<string, unknown> | null {
  return driver.read(`SELECT * FROM ${ident(table.name)} WHERE ${ident(table.primary_key)} = ?`, [key])[0] ?? null;
}

/** Agent-side writes that can run without an approval and whose effects write `table`. */
export function writersOf(input: MutationInput, table: string): Operation[] {
  const writes = new RegExp(`\\b(?:update|into|from)\\s+"?${table}"?\\b`, "i");
  return input.ctx.world.operations.filter((o) => o.side === "agent" && o.access === "write" && !o.requires_approval && !o.proposes && o.approves === undefined && o.effects.some((e) => writes.test(e.sql)));
}

/** Parameters of `op` that carry a primary key of `table` (by name, or by a pattern the key matches). */
export function keyParams(op: Operation, table: Table, sampleKey: string | number): string[] {
  return Object.entries(op.params)
    .filter(([name, p]) => name === table.primary_key || (p.pattern !== undefined && typeof sampleKey === "string" && new RegExp(p.pattern, "u").test(sampleKey)))
    .map(([name]) => name);
}

/** `name(a = 1, b = "x")` for reasons. */
export function callText(name: string, args: Record<string, unknown>): string {
  return `${name}(${Object.entries(args).map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join(", ")})`;
}
