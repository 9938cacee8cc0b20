import { createHash } from "node:crypto";
import canonicalizeImport from "canonicalize";

// canonicalize ships CommonJS typings with a default export; normalise once here.
const canonicalizeFn = canonicalizeImport as unknown as (value: unknown) => string | undefined;

/** RFC 8785 canonical JSON: sorted keys, no whitespace, normalised numbers. */
export function canonicalJson(value: unknown): string {
  const out = canonicalizeFn(value);
  if (out === undefined) throw new TypeError("value cannot be canonicalized (undefined or a function)");
  return out;
}

/** Pretty, stable JSON for files people read and diff: keys sorted, two-space indent, final newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Deep copy with object keys in code-point order; arrays keep their order. */
export function sortKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeys(v)) as T;
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out as T;
  }
  return value;
}

/** sha256 hex digest of bytes or a string (UTF-8). */
export function sha256(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Content hash of a JSON value: sha256 of its canonical JSON. */
export function contentHash(value: unknown): string {
  return sha256(canonicalJson(value));
}
