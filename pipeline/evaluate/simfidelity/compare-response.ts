import { canonicalJson } from "../../core/canonical-json.js";

/** How one simulated response compares with the world's real response to the same call. */
export interface ResponseComparison {
  /** Both said executed, or both rejected (on the same precondition). */
  status_agrees: boolean;
  /** Leaf fields of the real result (a row's fields, every row's of a list). */
  fields: number;
  /** Of those, the ones the simulated result gives with the same value. */
  agreeing: number;
  /** Records the simulator gave that the world did not (by key: a row's first field). */
  invented: number;
  /** Records the world gave that the simulator did not. */
  missing: number;
}

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => v !== null && typeof v === "object" && !Array.isArray(v);
const same = (a: unknown, b: unknown): boolean => canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** A list's rows by key (first field's value); a row without one is keyed by position. */
function keyed(rows: readonly unknown[]): Map<string, unknown> {
  return new Map(rows.map((r, i) => [isRow(r) && Object.keys(r).length > 0 ? canonicalJson(r[Object.keys(r)[0] as string] ?? null) : `#${i}`, r]));
}

/** Leaf fields of `real` and how many `sim` gives alike: rows field by field, lists row by key. */
function fieldAgreement(real: unknown, sim: unknown): { fields: number; agreeing: number; invented: number; missing: number } {
  if (Array.isArray(real)) {
    const r = keyed(real);
    const s = Array.isArray(sim) ? keyed(sim) : new Map<string, unknown>();
    let fields = 0;
    let agreeing = 0;
    let missing = 0;
    for (const [k, row] of r) {
      const got = fieldAgreement(row, s.get(k));
      fields += got.fields;
      agreeing += got.agreeing;
      if (!s.has(k)) missing++;
    }
    return { fields, agreeing, missing, invented: [...s.keys()].filter((k) => !r.has(k)).length };
  }
  if (isRow(real)) {
    const other = isRow(sim) ? sim : {};
    const keys = Object.keys(real);
    return { fields: keys.length, agreeing: keys.filter((k) => k in other && same(real[k], other[k])).length, invented: 0, missing: isRow(sim) ? 0 : 1 };
  }
  // A scalar or null answer: one field when it carries a value; a record where the world had none is invented.
  if (real === null || real === undefined) return { fields: 0, agreeing: 0, invented: isRow(sim) || (Array.isArray(sim) && sim.length > 0) ? 1 : 0, missing: 0 };
  return { fields: 1, agreeing: same(real, sim) ? 1 : 0, invented: 0, missing: 0 };
}

/**
 * Compare the simulator's answer to one call with the world's: whether the status agrees, and
 * when the world executed, field-level agreement of the result and invented or missing records.
 * `sim` null: the simulator gave no valid answer (nothing agrees, every record is missing).
 */
export function compareResponse(real: { status: string; result: unknown; precondition?: string | undefined }, sim: { status: string; result?: unknown; precondition?: string | undefined } | null): ResponseComparison {
  const simStatus = sim?.status ?? "none";
  const status_agrees = real.status === simStatus && (real.status !== "rejected" || real.precondition === sim?.precondition);
  if (real.status !== "executed") return { status_agrees, fields: 0, agreeing: 0, invented: 0, missing: 0 };
  const f = fieldAgreement(real.result, simStatus === "executed" ? sim?.result : undefined);
  return { status_agrees, ...f };
}
