import type { DraftTable } from "./draft-tables.js";
import { tableNamed, type OpContext, type Recognised } from "./recognise-refusal.js";
import { sameWord, words } from "./text.js";

/**
 * A refusal that joins two conditions on the row with "and", each of a shape read here:
 *
 * - "The intake notes must be recorded": the row's `<…notes>_recorded` flag is 1;
 * - "the client must not be carrying a weapon": the row's yes/no column named by the thing
 *   (a column another function fills from a `no / yes` parameter) is not "yes" ("must be" → "yes").
 *
 * "The intake notes must be recorded and the client must not be carrying a weapon" → both. Null
 * unless both halves are read.
 */

type Where = Record<string, string | number | { not: string }>;

function flagRecorded(part: string, t: DraftTable): Where | null {
  const m = /^(?:The |A |An )?([a-z][a-z -]*?) must be recorded$/i.exec(part);
  if (!m) return null;
  const ws = words(m[1] as string);
  const flags = t.columns.filter((c) => /_recorded$/.test(c.name) && ws.includes(c.name.replace(/_recorded$/, "").split("_").at(-1) as string));
  return flags.length === 1 ? { [(flags[0] as { name: string }).name]: 1 } : null;
}

function yesNo(part: string, ctx: OpContext, t: DraftTable): Where | null {
  const m = /^(?:the |a |an )?([a-z]+) must (not )?be [a-z]+ing (?:an? |any )?([a-z][a-z -]*?)$/i.exec(part);
  if (!m) return null;
  const who = tableNamed(ctx.set, m[1] as string);
  if (!(who === t || (who && who === ctx.set.customer && t.owner))) return null;
  const thing = words(m[3] as string).at(-1) as string;
  const cols = t.columns.filter((c) => {
    const vals = ctx.enums?.get(`${t.name}.${c.name}`) ?? [];
    return vals.includes("yes") && vals.includes("no") && c.name.split("_").some((w) => sameWord(w, thing));
  });
  if (cols.length !== 1) return null;
  const col = (cols[0] as { name: string }).name;
  return { [col]: m[2] ? { not: "yes" } : "yes" };
}

export function compoundRefusal(clause: string, ctx: OpContext, t: DraftTable): Recognised | null {
  const parts = clause.split(/\s+and\s+(?=(?:the|a|an)\s)/i);
  if (parts.length !== 2) return null;
  const where: Where = {};
  for (const part of parts) {
    const w = flagRecorded(part.trim(), t) ?? yesNo(part.trim(), ctx, t);
    if (!w) return null;
    Object.assign(where, w);
  }
  return { in_state: t.name, where, idHint: Object.keys(where).join("_and_") };
}
