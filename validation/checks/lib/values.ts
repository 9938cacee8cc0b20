import { z } from "zod";
import { quote } from "../../../pipeline/core/errors.js";

/** A literal a check compares with (the same scalars the world model stores). */
export const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Scalar = z.infer<typeof Scalar>;

/** A primary-key value. */
export const KeyValue = z.union([z.string(), z.number()]);

/** Arguments a call must carry (a subset: other arguments may be present). */
export const ArgsSubset = z
  .record(z.string(), Scalar)
  .default({})
  .describe("Arguments the call must carry with exactly these values; other arguments are free.");

/** SQLite stores booleans as 0/1 and a missing column reads as null: compare on that footing. */
export function normalize(v: unknown): unknown {
  if (v === undefined) return null;
  if (v === true) return 1;
  if (v === false) return 0;
  return v;
}

/** Equality of two stored values (booleans as 0/1, undefined as null, objects by JSON). */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = normalize(a);
  const y = normalize(b);
  if (x === y) return true;
  if (typeof x === "object" && typeof y === "object" && x !== null && y !== null) return JSON.stringify(x) === JSON.stringify(y);
  return false;
}

/** Keys compare as text: a key read from YAML as 7 and stored as "7" is the same row. */
export function sameKey(a: unknown, b: unknown): boolean {
  return String(a) === String(b);
}

/** `amount = 5000, payment_id = "PAY-1"`: arguments in key order, values quoted. */
export function formatArgs(args: Record<string, unknown>): string {
  const keys = Object.keys(args).sort();
  if (keys.length === 0) return "no arguments";
  return keys.map((k) => `${k} = ${quote(args[k])}`).join(", ");
}

/** `["a", "b"]` for lists in reasons. */
export function formatList(values: readonly unknown[]): string {
  return `[${values.map((v) => quote(v)).join(", ")}]`;
}
