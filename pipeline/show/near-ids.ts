/** Edit distance between two short ids (insertions, deletions, substitutions). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/**
 * The ids that look like `wanted`, nearest first (ties by id): the closest few by edit distance,
 * so a typo such as `customs-clearance-01` lists `customs-clearance-001`.
 */
export function nearIds(wanted: string, ids: readonly string[], max = 5): string[] {
  return [...ids]
    .map((id) => ({ id, d: distance(wanted, id) - (id.includes(wanted) || wanted.includes(id) ? 1 : 0) }))
    .sort((x, y) => x.d - y.d || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
    .slice(0, max)
    .map((x) => x.id);
}
