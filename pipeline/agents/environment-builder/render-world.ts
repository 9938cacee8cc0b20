import { Document, isMap, isSeq, type Node, type YAMLMap, type YAMLSeq } from "yaml";

/**
 * A drafted world as world.yaml text in the house style: one table or operation per block, every
 * column, parameter, fixed row, precondition and effect on one line as a flow mapping, and the
 * review notes of a table or operation as comments right above it. Same input, same bytes.
 */

export interface RenderNotes {
  header: string[];
  /** Comment lines above `tables[i]` / `operations[i]`, by `tables.<name>` / `operations.<name>`. */
  above: Map<string, string[]>;
}

const ONE_LINE = new Set(["columns", "rows", "preconditions", "effects"]);
const ONE_LINE_VALUES = new Set(["params", "fields"]);
const ONE_LINE_KEYS = new Set(["result", "transition", "proposes", "requires_approval", "clause", "generate", "ordered"]);

function flowChildren(node: unknown): void {
  if (!isMap(node)) return;
  for (const pair of (node as YAMLMap<unknown, unknown>).items) {
    const key = String((pair.key as { value?: unknown })?.value ?? pair.key);
    const v = pair.value as Node | null;
    if (!v) continue;
    if (ONE_LINE.has(key) && isSeq(v)) for (const item of (v as YAMLSeq<unknown>).items) if (isMap(item)) (item as YAMLMap).flow = true;
    if (ONE_LINE_VALUES.has(key) && isMap(v)) for (const p of (v as YAMLMap<unknown, unknown>).items) if (isMap(p.value)) (p.value as YAMLMap).flow = true;
    if (ONE_LINE_KEYS.has(key) && (isMap(v) || isSeq(v)) && key !== "generate") (v as YAMLMap).flow = true;
    if (key === "generate" && isMap(v)) flowChildren(v);
    if (key === "invariant" && isMap(v)) (v as YAMLMap).flow = true;
  }
}

/** world.yaml text of `world` (plain data in world.yaml form). */
export function renderWorld(world: Record<string, unknown>, notes: RenderNotes): string {
  const doc = new Document(world);
  for (const section of ["tables", "operations", "events", "rules"]) {
    const seq = doc.get(section, true);
    if (!isSeq(seq)) continue;
    (seq as YAMLSeq<unknown>).items.forEach((item, i) => {
      if (!isMap(item)) return;
      flowChildren(item);
      if (section === "rules") (item as YAMLMap).flow = false;
      const name = String((item as YAMLMap<unknown, unknown>).get("name") ?? (item as YAMLMap<unknown, unknown>).get("id"));
      const above = notes.above.get(`${section}.${name}`) ?? [];
      if (above.length > 0) (item as YAMLMap).commentBefore = above.map((l) => ` ${l}`).join("\n");
      if (i > 0 && section !== "rules") (item as YAMLMap).spaceBefore = true;
    });
    const pair = (doc.contents as YAMLMap<unknown, unknown>).items.find((p) => String((p.key as { value?: unknown })?.value ?? p.key) === section);
    if (pair && pair.key && typeof pair.key === "object") (pair.key as { spaceBefore?: boolean }).spaceBefore = true;
  }
  doc.commentBefore = notes.header.map((l) => ` ${l}`).join("\n");
  return doc.toString({ lineWidth: 0, indentSeq: true });
}
