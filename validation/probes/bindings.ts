import type { Param } from "../../pipeline/schemas/index.js";
import type { CustomerAttributes } from "../../pipeline/sop/select-rules.js";
import type { AgentView } from "./visible-world.js";
import { searchPattern } from "./values.js";

/** How many characters before a key the request is searched for words that say which parameter it is. */
const WINDOW = 40;

/**
 * What a probe knows, by name: values from the customer's request and from the results of its own
 * calls (`state`), and what the customer answered for a parameter (`customer`). A name is bound
 * once; later sightings do not overwrite it, so the request's keys win over anything read later.
 */
export class Bindings {
  readonly state = new Map<string, unknown>();
  readonly customer = new Map<string, unknown>();
  attributes: CustomerAttributes | null = null;

  /** Bind the request's keys to the parameters whose patterns they match. */
  fromRequest(request: string, view: AgentView): void {
    const groups = new Map<string, string[]>();
    for (const op of view.operations.values()) {
      if (op.side !== "agent") continue;
      for (const [name, p] of Object.entries(op.params)) {
        if (p.pattern === undefined) continue;
        const g = groups.get(p.pattern) ?? [];
        if (!g.includes(name)) g.push(name);
        groups.set(p.pattern, g);
      }
    }
    for (const [pattern, names] of groups) {
      const seen = new Set<string>();
      const found = [...request.matchAll(searchPattern(pattern))].filter((m) => !seen.has(m[0]) && seen.add(m[0]));
      for (const [name, value] of assign(names, found, request)) if (!this.state.has(name)) this.state.set(name, value);
    }
  }

  /** Whether `text` names a key of some parameter other than the customer's number. */
  namesKeys(text: string, view: AgentView): boolean {
    const customer = this.state.get(view.customerKey);
    for (const op of view.operations.values()) {
      if (op.side !== "agent") continue;
      for (const [name, p] of Object.entries(op.params)) {
        if (p.pattern === undefined || name === view.customerKey) continue;
        if ([...text.matchAll(searchPattern(p.pattern))].some((m) => m[0] !== customer)) return true;
      }
    }
    return false;
  }

  /**
   * Turn to the next piece of work the request asks for ("Then cancel PAY-2."): what was learned about the
   * previous subject is forgotten (keeping the customer's key), and this part's keys are bound.
   */
  focus(part: string, view: AgentView): void {
    const customer = this.state.get(view.customerKey);
    this.state.clear();
    if (customer !== undefined) this.state.set(view.customerKey, customer);
    this.fromRequest(part, view);
  }

  /**
   * Remember the scalar fields of a call's result. A list names no one thing, unless exactly one row
   * is the one already in hand (its key matches a value the probe holds, e.g. the storage item named
   * in the request), or exactly one row shows the most values the procedure's words name (`hint`:
   * "identify the open physical hold" picks the hold whose type is physical and whose status is open).
   */
  absorb(result: unknown, view: AgentView, hint = ""): void {
    if (Array.isArray(result)) {
      const rows = result.filter((r): r is Record<string, unknown> => r !== null && typeof r === "object" && !Array.isArray(r));
      const mine = rows.filter((r) => Object.entries(r).some(([k, v]) => k !== view.customerKey && v !== null && typeof v !== "object" && this.state.get(k) === v));
      if (mine.length === 1) return this.absorb(mine[0], view);
      const named = namedBy(rows, hint);
      if (named) this.absorb(named, view);
      return;
    }
    if (result === null || typeof result !== "object") return;
    const row = result as Record<string, unknown>;
    if ("error" in row) return;
    for (const [k, v] of Object.entries(row)) if (v !== null && typeof v !== "object" && !this.state.has(k)) this.state.set(k, v);
    if (this.attributes === null && view.customerKey in row && ["segment", "region", "product"].some((a) => a in row)) {
      const text = (k: string) => (typeof row[k] === "string" ? (row[k] as string) : null);
      this.attributes = { segment: text("segment"), region: text("region"), product: text("product") };
    }
  }

  /** The value of a parameter the probe knows without asking anyone. */
  known(name: string, p: Param): unknown {
    if (p.source === "customer") return this.customer.get(name);
    return this.state.get(name) ?? this.customer.get(name);
  }
}

/** The one row of a list with the most text values that the hint names as whole words (none on a tie or no hit). */
function namedBy(rows: readonly Record<string, unknown>[], hint: string): Record<string, unknown> | undefined {
  const words = new Set(hint.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 2));
  if (words.size === 0) return undefined;
  const score = (r: Record<string, unknown>) =>
    Object.values(r).filter((v) => typeof v === "string" && /^[a-z][a-z_ ]*$/i.test(v) && v.toLowerCase().split(/[_ ]+/).every((w) => words.has(w))).length;
  const scored = rows.map((r) => ({ r, n: score(r) })).sort((a, b) => b.n - a.n);
  const [best, next] = scored;
  return best && best.n > 0 && (!next || next.n < best.n) ? best.r : undefined;
}

/** Match keys to parameters: by a distinctive word of the name just before the key (`from`, `to`), else in order. */
function assign(names: readonly string[], found: readonly RegExpMatchArray[], request: string): Array<[string, string]> {
  if (names.length === 1) return found[0] ? [[names[0] as string, found[0][0]]] : [];
  const parts = names.map((n) => n.split("_"));
  const shared = new Set((parts[0] ?? []).filter((w) => parts.every((ps) => ps.includes(w))));
  const out: Array<[string, string]> = [];
  const free = [...names];
  const rest: string[] = [];
  for (const m of found) {
    const before = request.slice(Math.max(0, (m.index ?? 0) - WINDOW), m.index).toLowerCase().split(/[^a-z]+/);
    let best: { name: string; at: number } | null = null;
    for (const name of free) {
      const words = name.split("_").filter((w) => !shared.has(w));
      const at = Math.max(...words.map((w) => before.lastIndexOf(w)));
      if (at >= 0 && (!best || at > best.at)) best = { name, at };
    }
    if (best) {
      out.push([best.name, m[0]]);
      free.splice(free.indexOf(best.name), 1);
    } else rest.push(m[0]);
  }
  rest.forEach((v, i) => {
    const name = free[i];
    if (name) out.push([name, v]);
  });
  return out;
}
