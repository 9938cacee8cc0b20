import { hash } from "node:crypto";
import { canonicalJson } from "../core/canonical-json.js";

/** sha256 hex of a string: the same digest as core's sha256, through the one-shot crypto.hash (no Hash object; measurably cheaper per call). */
export function sha256Hex(text: string): string {
  return hash("sha256", text, "hex");
}

/**
 * Canonical JSON, fast when the value is already in canonical key order. The runtime builds row
 * changes that way (row images come out of SQLite with sorted columns; RowChange keys are written
 * in sorted order), and for such a value native JSON.stringify produces exactly the RFC 8785 text:
 * same number and string serialization, same key order. Anything else goes through canonicalJson.
 */
export function canonicalJsonFast(value: unknown): string {
  return isCanonicalOrder(value) ? JSON.stringify(value) : canonicalJson(value);
}

function isCanonicalOrder(v: unknown): boolean {
  if (v === null || typeof v !== "object") return typeof v !== "number" || Number.isFinite(v);
  if (Array.isArray(v)) {
    for (const x of v) if (x === undefined || !isCanonicalOrder(x)) return false;
    return true;
  }
  if (Object.getPrototypeOf(v) !== Object.prototype) return false;
  let prev: string | undefined;
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    // undefined members are dropped by both serializers, but keep it simple: take the slow path.
    if (x === undefined || (prev !== undefined && !(prev < k)) || !isCanonicalOrder(x)) return false;
    prev = k;
  }
  return true;
}
