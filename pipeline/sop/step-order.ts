/** A statement that some steps may be done in any order. */
export interface AnyOrderGroup {
  /** Step numbers as printed, ascending. */
  steps: number[];
  line: number;
}

const ANY_ORDER = /\bsteps\s+(\d+(?:\s*,\s*\d+)*)\s*,?\s*(and|to|through|–|-)\s*(\d+)\s+(?:can|may)\s+be\s+(?:carried\s+out|performed|done|completed|taken)\s+in\s+(?:any|either)\s+order/gi;
const MENTIONS_ORDER = /\bin\s+(?:any|either)\s+order\b/i;

/**
 * Find `Steps N and M can be carried out in any order` (also `Steps N to M`, `Steps N, M and K`)
 * in a paragraph. Other sentences about "any order" are returned as unclear.
 */
export function anyOrderGroups(text: string, line: number): { groups: AnyOrderGroup[]; unclear: boolean } {
  const groups: AnyOrderGroup[] = [];
  ANY_ORDER.lastIndex = 0;
  for (let m = ANY_ORDER.exec(text); m; m = ANY_ORDER.exec(text)) {
    const listed = (m[1] as string).split(",").map((s) => Number(s.trim()));
    const last = Number(m[3]);
    const range = m[2] === "and" ? [...listed, last] : rangeOf(listed, last);
    groups.push({ steps: [...new Set(range)].sort((a, b) => a - b), line });
  }
  return { groups, unclear: groups.length === 0 && MENTIONS_ORDER.test(text) };
}

function rangeOf(listed: number[], last: number): number[] {
  const from = listed[listed.length - 1] as number;
  const out = listed.slice(0, -1);
  for (let n = from; n <= last; n++) out.push(n);
  return out;
}

/**
 * Dependencies of steps (by position in the list) given any-order groups (as position ranges,
 * contiguous, non-overlapping): the steps form units in order — a single step, or a whole group —
 * and every step of a unit requires every step of the unit before it.
 */
export function stepDependencies(count: number, groups: ReadonlyArray<readonly [number, number]>): number[][] {
  const units: number[][] = [];
  const sorted = [...groups].sort((a, b) => a[0] - b[0]);
  let i = 0;
  for (const [from, to] of sorted) {
    for (; i < from; i++) units.push([i]);
    const unit: number[] = [];
    for (; i <= to; i++) unit.push(i);
    units.push(unit);
  }
  for (; i < count; i++) units.push([i]);
  const requires: number[][] = new Array(count);
  units.forEach((unit, u) => {
    for (const s of unit) requires[s] = u === 0 ? [] : [...(units[u - 1] as number[])];
  });
  return requires;
}
