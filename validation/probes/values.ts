import type { Param } from "../../pipeline/schemas/index.js";
import { labelledValueIn } from "../../pipeline/world/value-words.js";

// A leading minus counts only where it stands alone ("is -1"), not inside an id ("ATT-5113") or a range ("5-10").
const AMOUNT = /(?:(?<![\p{L}\p{N}])-)?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)/gu;

/** Numbers written in a text (`5,000.00` → 5000, `-1` → -1), in order. */
export function numbersIn(text: string): number[] {
  return [...text.matchAll(AMOUNT)].map((m) => Number(m[0].replace(/,/g, "")));
}

/** An unanchored, global form of a parameter pattern, to find values in free text. */
export function searchPattern(pattern: string): RegExp {
  return new RegExp(pattern.replace(/^\^/, "").replace(/\$$/, ""), "gu");
}

/** The value for a parameter in a customer's answer, read as an agent would; undefined when none fits. */
export function valueIn(text: string, p: Param): unknown {
  if (p.type === "array") return listIn(text, p);
  // Words the world says customers use for a value ("we asked for it" → client_request) come first.
  const labelled = labelledValueIn(text, p);
  if (labelled !== undefined) return labelled;
  if (p.enum && p.enum.length > 0) {
    // Whole words only, longest value first: "incomplete" is not "complete".
    const lower = text.toLowerCase();
    const words = (v: string | number) => new RegExp(`(?<![\\p{L}\\p{N}_])${String(v).toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}_])`, "u");
    const hit = [...p.enum].sort((a, b) => String(b).length - String(a).length).find((v) => words(v).test(lower));
    if (hit !== undefined) return hit;
  }
  if (p.pattern !== undefined) return text.match(searchPattern(p.pattern))?.[0];
  if (p.type === "number" || p.type === "integer") return numbersIn(text)[0];
  if (p.type === "boolean") return /\b(yes|true|agreed|confirm)/i.test(text);
  const quoted = /["“']([^"”']+)["”']/.exec(text);
  if (quoted) return quoted[1];
  // "When the symptoms started: cough for four days." — what follows the colon is the value.
  const named = /^[^:]+:\s+(.+?)\.?\s*$/.exec(text.trim());
  if (named) return named[1];
  // "The reason is duplicate payment." — what follows the last "is" (or "are") is the value.
  const stated = /\b(?:is|are)\s+([^.]+?)\.?\s*$/i.exec(text.trim());
  if (stated) return stated[1];
  const tokens = text.match(/[A-Za-z0-9][A-Za-z0-9/_-]*\d[A-Za-z0-9/_-]*/g);
  return tokens?.at(-1) ?? (text.trim().replace(/\.$/, "") || undefined);
}

/** The items of a parameter, as a parameter of their own. */
function itemParam(p: Param): Param {
  return { ...p, type: p.items?.type ?? "string", items: undefined, enum: p.items?.enum, pattern: p.items?.pattern };
}

/** A list in a customer's answer: every match of the items' pattern or enumerated values, else the stated words split on commas and "and". */
function listIn(text: string, p: Param): unknown[] | undefined {
  const item = itemParam(p);
  if (p.labels) {
    const lower = text.toLowerCase();
    const said = Object.entries(p.labels).filter(([, w]) => lower.includes(w.toLowerCase()));
    // In the order the customer said them.
    said.sort((a, b) => lower.indexOf(a[1].toLowerCase()) - lower.indexOf(b[1].toLowerCase()));
    const hits = said.map(([v]) => (item.type === "number" || item.type === "integer" ? Number(v) : v));
    if (hits.length > 0) return hits;
  }
  if (item.pattern !== undefined) {
    const all = text.match(new RegExp(searchPattern(item.pattern).source, "gu"));
    return all && all.length > 0 ? [...all] : undefined;
  }
  if (item.enum && item.enum.length > 0) {
    const lower = text.toLowerCase();
    const hits = item.enum.filter((v) => lower.includes(String(v).toLowerCase()));
    return hits.length > 0 ? hits : undefined;
  }
  const stated = /\b(?:is|are)\s+([^.]+?)\.?\s*$/i.exec(text.trim())?.[1];
  if (!stated) return undefined;
  const parts = stated.split(/\s*,\s*|\s+and\s+/).map((x) => x.trim()).filter((x) => x.length > 0);
  return item.type === "number" || item.type === "integer" ? parts.map(Number) : parts;
}

/** A plausible made-up value for a parameter, shaped by its pattern (what an agent that never asks would send). */
export function invented(p: Param): unknown {
  if (p.type === "array") return [invented(itemParam(p))];
  if (p.enum && p.enum.length > 0) return p.enum[0];
  if (p.type === "number" || p.type === "integer") return Math.max(p.minimum ?? 100, 100);
  if (p.type === "boolean") return true;
  if (p.pattern === undefined) return "as agreed";
  // Enough of a regex to fill the common shapes of references: literals, \d{n}, [A-Z]{n}, classes.
  let out = "";
  const src = p.pattern.replace(/^\^/, "").replace(/\$$/, "");
  for (let i = 0; i < src.length; i++) {
    const c = src[i] as string;
    let unit: string;
    if (c === "\\") {
      const e = src[++i] ?? "";
      unit = e === "d" ? "0" : e === "w" ? "A" : e;
    } else if (c === "[") {
      const end = src.indexOf("]", i);
      const cls = src.slice(i + 1, end);
      unit = /0-9/.test(cls) ? "0" : /A-Z/.test(cls) ? "A" : /a-z/.test(cls) ? "a" : (cls[0] ?? "x");
      i = end;
    } else unit = c;
    const rep = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(i + 1));
    if (rep) {
      out += unit.repeat(Number(rep[1]));
      i += rep[0].length;
    } else if (src[i + 1] === "+" || src[i + 1] === "*" || src[i + 1] === "?") {
      out += unit;
      i++;
    } else out += unit;
  }
  return out;
}
