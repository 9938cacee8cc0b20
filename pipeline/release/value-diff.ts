import microdiff from "microdiff";
import { formatPath } from "../core/schema-issues.js";

/** One structural difference between two JSON values, with a readable path (`args.amount`, `changes[0].after`). */
export interface ValueChange {
  type: "CREATE" | "REMOVE" | "CHANGE";
  path: string;
  old?: unknown;
  new?: unknown;
}

/** Structural differences of two JSON objects or arrays (microdiff), in microdiff's order. */
export function valueDiff(a: Record<string, unknown> | unknown[], b: Record<string, unknown> | unknown[]): ValueChange[] {
  return microdiff(a, b, { cyclesFix: false }).map((d) => {
    const path = formatPath(d.path);
    if (d.type === "CREATE") return { type: d.type, path, new: d.value as unknown };
    if (d.type === "REMOVE") return { type: d.type, path, old: d.oldValue as unknown };
    return { type: d.type, path, old: d.oldValue as unknown, new: d.value as unknown };
  });
}

/** Object without some keys (to diff a task apart from its checks, a trace apart from its events). */
export function omit<T extends object>(value: T, ...keys: Array<keyof T>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const k of keys) delete out[k as string];
  return out;
}
