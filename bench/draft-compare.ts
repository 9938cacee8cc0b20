import { LineCounter, parseDocument, type Document } from "yaml";
import type { WorldModel } from "../pipeline/schemas/world-model.js";

/**
 * A drafted world against the authored one, element by element (the figures of bench/draft-world.ts):
 *
 * - tables by name; columns by table and name; operations by name; parameters by operation and name;
 * - preconditions by operation and message: the two messages, lower-cased with everything but
 *   letters and digits dropped, are equal or one starts with the other (a manual's message table may
 *   print the first clause of a longer message); a transition's precondition counts as one;
 * - effects by operation and the columns they write (`table.column` of every UPDATE SET and INSERT
 *   column list, a transition's included): an authored effect is matched by a drafted effect of the
 *   same operation that writes the same table and at least one of its columns; `written` scores the
 *   (operation, table.column) pairs themselves, the stricter figure.
 *
 * Recall = matched / authored, precision = matched / drafted. "Lines still to write" are the lines
 * of the authored world.yaml that hold what the draft lacks: every fixed row and generator, events,
 * unmatched tables, columns, operations, parameters, preconditions, effects and results, approvals
 * the draft does not have and rules it does not point at the same clause.
 */

export interface Score {
  authored: number;
  drafted: number;
  matched: number;
}

export interface Comparison {
  tables: Score;
  columns: Score;
  operations: Score;
  parameters: Score;
  preconditions: Score;
  effects: Score;
  written: Score;
  /** Lines of the authored world.yaml holding what the draft lacks, by part. */
  linesToWrite: Record<"rows" | "tables" | "operations" | "events" | "rules", number>;
  authoredLines: number;
}

const norm = (m: string) => m.toLowerCase().replace(/[^a-z0-9]+/g, "");
const sameMessage = (a: string, b: string) => {
  const x = norm(a);
  const y = norm(b);
  return x === y || (x.length >= 20 && y.startsWith(x)) || (y.length >= 20 && x.startsWith(y));
};

function score<T>(authored: readonly T[], drafted: readonly T[], same: (a: T, d: T) => boolean): Score & { hit: Set<T> } {
  const hit = new Set<T>();
  const used = new Set<T>();
  for (const a of authored) {
    const d = drafted.find((x) => !used.has(x) && same(a, x));
    if (d !== undefined) {
      hit.add(a);
      used.add(d);
    }
  }
  return { authored: authored.length, drafted: drafted.length, matched: hit.size, hit };
}

/** `table.column` written by one INSERT / UPDATE statement. */
export function columnsWritten(sql: string): string[] {
  const ins = /^\s*INSERT\s+(?:OR\s+\w+\s+)?INTO\s+"?(\w+)"?\s*\(([^)]*)\)/i.exec(sql);
  if (ins) return (ins[2] as string).split(",").map((c) => `${ins[1]}.${c.trim().replace(/"/g, "")}`);
  const upd = /^\s*UPDATE\s+"?(\w+)"?\s+SET\s+([\s\S]*)$/i.exec(sql);
  if (!upd) return [];
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  // The SET list ends at the statement's own WHERE (depth 0), not at one inside a subquery.
  const rest = upd[2] as string;
  let end = rest.length;
  for (let i = 0, d = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === "(") d++;
    else if (c === ")") d--;
    else if (d === 0 && /^\sWHERE\b/i.test(rest.slice(i, i + 7))) {
      end = i;
      break;
    }
  }
  const body = rest.slice(0, end);
  for (let i = 0; i <= body.length; i++) {
    const c = body[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if ((c === "," && depth === 0) || i === body.length) {
      const col = /^\s*"?(\w+)"?\s*=/.exec(body.slice(start, i));
      if (col) out.push(`${upd[1]}.${col[1]}`);
      start = i + 1;
    }
  }
  return out;
}

interface Effect {
  op: string;
  columns: Set<string>;
}

function effectsOf(w: WorldModel): Effect[] {
  return w.operations.flatMap((o) => o.effects.map((e) => ({ op: o.name, columns: new Set(columnsWritten(e.sql)) })));
}

/** Lines spanned by the YAML node at `path` of the authored text. */
function spanOf(doc: Document, lines: LineCounter, path: Array<string | number>): number {
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
  if (!node?.range) return 0;
  const a = lines.linePos(node.range[0]).line;
  const b = lines.linePos(Math.max(node.range[0], node.range[1] - 1)).line;
  return b - a + 1;
}

/** Compare a drafted world with the authored one (both as the runtime runs them); `authoredText` is the authored world.yaml. */
export function compareWorlds(draft: WorldModel, authored: WorldModel, authoredText: string): Comparison {
  const tables = score(authored.tables.map((t) => t.name), draft.tables.map((t) => t.name), (a, d) => a === d);
  const cols = (w: WorldModel) => w.tables.flatMap((t) => t.columns.map((c) => `${t.name}.${c.name}`));
  const columns = score(cols(authored), cols(draft), (a, d) => a === d);
  const operations = score(authored.operations.map((o) => o.name), draft.operations.map((o) => o.name), (a, d) => a === d);
  const params = (w: WorldModel) => w.operations.flatMap((o) => Object.keys(o.params).map((p) => `${o.name}.${p}`));
  const parameters = score(params(authored), params(draft), (a, d) => a === d);
  const pcs = (w: WorldModel) => w.operations.flatMap((o) => o.preconditions.map((p) => ({ op: o.name, message: p.message })));
  const preconditions = score(pcs(authored), pcs(draft), (a, d) => a.op === d.op && sameMessage(a.message, d.message));
  const effects = score(effectsOf(authored), effectsOf(draft), (a, d) => a.op === d.op && [...a.columns].some((c) => d.columns.has(c)));
  const pairs = (w: WorldModel) => [...new Set(effectsOf(w).flatMap((e) => [...e.columns].map((c) => `${e.op}.${c}`)))];
  const written = score(pairs(authored), pairs(draft), (a, d) => a === d);

  const lines = new LineCounter();
  const doc = parseDocument(authoredText, { lineCounter: lines });
  const toWrite = { rows: 0, tables: 0, operations: 0, events: 0, rules: 0 };
  authored.tables.forEach((t, i) => {
    if (t.rows.length > 0) toWrite.rows += spanOf(doc, lines, ["tables", i, "rows"]);
    if (t.generate) toWrite.rows += spanOf(doc, lines, ["tables", i, "generate"]);
    if (!tables.hit.has(t.name)) {
      toWrite.tables += spanOf(doc, lines, ["tables", i]) - spanOf(doc, lines, ["tables", i, "rows"]) - spanOf(doc, lines, ["tables", i, "generate"]);
      return;
    }
    t.columns.forEach((c, j) => {
      if (!columns.hit.has(`${t.name}.${c.name}`)) toWrite.tables += spanOf(doc, lines, ["tables", i, "columns", j]);
    });
  });
  const draftOps = new Map(draft.operations.map((o) => [o.name, o]));
  const pcHit = new Set([...preconditions.hit].map((p) => `${p.op}\u0000${p.message}`));
  const effHit = new Set([...effects.hit]);
  const authoredEffects = effectsOf(authored);
  authored.operations.forEach((o, i) => {
    const d = draftOps.get(o.name);
    if (!d) {
      toWrite.operations += spanOf(doc, lines, ["operations", i]);
      return;
    }
    for (const p of Object.keys(o.params)) if (!parameters.hit.has(`${o.name}.${p}`)) toWrite.operations += spanOf(doc, lines, ["operations", i, "params", p]);
    o.preconditions.forEach((p, j) => {
      if (!pcHit.has(`${o.name}\u0000${p.message}`)) toWrite.operations += spanOf(doc, lines, ["operations", i, "preconditions", j]);
    });
    const mine = authoredEffects.filter((e) => e.op === o.name);
    o.effects.forEach((_e, j) => {
      if (!effHit.has(mine[j] as Effect)) toWrite.operations += spanOf(doc, lines, ["operations", i, "effects", j]);
    });
    if (o.result && !d.result) toWrite.operations += spanOf(doc, lines, ["operations", i, "result"]);
    for (const k of ["proposes", "approves", "requires_approval"] as const) if (o[k] !== undefined && d[k] === undefined) toWrite.operations += spanOf(doc, lines, ["operations", i, k]);
  });
  toWrite.events = authored.events.length > 0 ? spanOf(doc, lines, ["events"]) : 0;
  const clauses = new Set(draft.rules.map((r) => `${r.clause.document}\u0000${r.clause.clause}`));
  authored.rules.forEach((r, i) => {
    if (!clauses.has(`${r.clause.document}\u0000${r.clause.clause}`)) toWrite.rules += spanOf(doc, lines, ["rules", i]);
  });
  const strip = ({ hit: _h, ...s }: Score & { hit: unknown }): Score => s;
  return {
    tables: strip(tables),
    columns: strip(columns),
    operations: strip(operations),
    parameters: strip(parameters),
    preconditions: strip(preconditions),
    effects: strip(effects),
    written: strip(written),
    linesToWrite: toWrite,
    authoredLines: authoredText.split("\n").length,
  };
}
