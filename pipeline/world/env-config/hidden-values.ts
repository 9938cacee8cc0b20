import Database from "better-sqlite3";
import type { EnvConfig, EnvConfigFile, EnvConfigShared } from "../../schemas/env-config.js";
import type { CompiledWorld } from "../compile-world.js";
import type { InitialState } from "../build-state.js";
import { agentViewBuffer } from "../agent-view.js";
import { ident } from "../schema-sql.js";
import { agentToolSpecs } from "../standard-tools.js";
import { CONVERSATION_TOOLS } from "../conversation-tools.js";

/** A hidden column's value (or name) found in an environment configuration. */
export interface HiddenLeak {
  table: string;
  column: string;
  /** The value found; null when the hidden column itself is listed. */
  value: string | null;
  /** Where in the configuration: `initial_state.<table>`, or the text that holds the value. */
  where: string;
}

const TOKEN = /[^A-Za-z0-9_.@:+-]+/;

/** Whole words of a text; punctuation that ends a sentence or a label (`.`, `:`) is not part of one. */
function tokens(text: string): Set<string> {
  return new Set(text.split(TOKEN).map((t) => t.replace(/^[.:@+-]+|[.:@+-]+$/g, "")).filter((t) => t !== ""));
}

/** Every string and number inside a value, one a line. */
function leaves(v: unknown): string {
  if (v === null || v === undefined || typeof v === "boolean") return "";
  if (typeof v === "string" || typeof v === "number") return String(v);
  if (Array.isArray(v)) return v.map(leaves).join("\n");
  return Object.values(v as Record<string, unknown>).map(leaves).join("\n");
}

function has(text: string, words: Set<string>, value: string): boolean {
  return TOKEN.test(value) ? text.includes(value) : words.has(value);
}

/**
 * Hidden values an environment configuration reveals. Structural: a hidden column named among a
 * table's columns or rows. Textual: a hidden column's name, or a value of a hidden column in the task's state, that occurs
 * nowhere an agent can see (no visible cell of the state, no tool spec) and occurs in the
 * configuration as a whole word (values shorter than 3 characters are not judged). A value an agent
 * can read anyway reveals nothing, so it is not a leak.
 */
export function hiddenLeaks(config: EnvConfig, world: CompiledWorld, state: InitialState): HiddenLeak[] {
  const secret = secretsOf(world, state.hash, () => state);
  return [...structuralLeaks(config.initial_state, world), ...textLeaks(ownTexts(config), secret), ...textLeaks(sharedTexts(config), secret)];
}

/**
 * hiddenLeaks of a stored configuration (its task's file and the shared part it names, `sharedHash`),
 * for a state named by `key` (any string that determines the state, such as a hash of the task's
 * overlay) and built by `state` only when its secrets are not known yet: the audit checks thousands
 * of tasks, many sharing a state and most sharing the shared part, so the shared part's text is
 * searched once per (state's secrets, shared part) and a state is built once per key.
 */
export function storedConfigLeaks(file: EnvConfigFile, shared: EnvConfigShared, sharedHash: string, world: CompiledWorld, key: string, state: () => InitialState): HiddenLeak[] {
  const secret = secretsOf(world, key, state);
  const known = sharedLeaks.get(secret) ?? new Map<string, HiddenLeak[]>();
  sharedLeaks.set(secret, known);
  let inShared = known.get(sharedHash);
  if (!inShared) {
    inShared = textLeaks(sharedTexts(shared), secret);
    known.set(sharedHash, inShared);
  }
  return [...structuralLeaks(file.initial_state, world), ...textLeaks(ownTexts(file), secret), ...inShared];
}

/** Leaks found in a shared part, per secrets and shared part's sha256. */
const sharedLeaks = new WeakMap<Secrets, Map<string, HiddenLeak[]>>();

/** A hidden column named among a table's columns or rows. */
function structuralLeaks(initialState: EnvConfig["initial_state"], world: CompiledWorld): HiddenLeak[] {
  const leaks: HiddenLeak[] = [];
  const hiddenCols = new Map(world.world.tables.map((t) => [t.name, new Set(t.columns.filter((c) => c.hidden).map((c) => c.name))]));
  for (const t of initialState) {
    const hidden = hiddenCols.get(t.table) ?? new Set<string>();
    for (const c of new Set([...t.columns, ...t.rows.flatMap((r) => Object.keys(r))])) if (hidden.has(c)) leaks.push({ table: t.table, column: c, value: null, where: `initial_state.${t.table}` });
  }
  return leaks;
}

// Values only (not JSON keys such as `notes`), so a field name of the format is never taken for a hidden word.
const ownTexts = (c: Pick<EnvConfig, "initial_state" | "row_rule">): Array<[string, string]> => [
  ["initial_state", leaves(c.initial_state)],
  ["row_rule", c.row_rule],
];
const sharedTexts = (c: EnvConfigShared): Array<[string, string]> => [
  ["system_prompt", c.system_prompt],
  ["state_description", leaves(c.state_description)],
  ["tools", leaves(c.tools.map((t) => ({ preconditions: t.preconditions, effects: t.effects, result: t.result })))],
];

/** Values of `secret` that occur in the texts as whole words (or as a substring, for a value holding a separator). */
function textLeaks(texts: Array<[string, string]>, secret: Secrets): HiddenLeak[] {
  const leaks: HiddenLeak[] = [];
  for (const [where, text] of texts) {
    const words = tokens(text);
    for (const [value, at] of secret) if (has(text, words, value)) leaks.push({ ...at, value, where });
  }
  return leaks;
}

type Secrets = ReadonlyMap<string, { table: string; column: string }>;

// The secrets of a state are a function of the world and the state's content, and computing them
// reads every visible cell: tasks with the same initial state (same content hash) share them. A few
// states per world are kept, the tasks of a domain being checked one after the other.
const secretsCache = new WeakMap<CompiledWorld, Map<string, Secrets>>();
const KEPT_STATES = 16;

/** Hidden column names and values an agent cannot read anywhere in this state (see hiddenLeaks). */
function secretsOf(world: CompiledWorld, key: string, stateOf: () => InitialState): Secrets {
  const byState = secretsCache.get(world) ?? new Map<string, Secrets>();
  secretsCache.set(world, byState);
  const known = byState.get(key);
  if (known) return known;
  const state = stateOf();
  const secret = new Map<string, { table: string; column: string }>();
  const db = new Database(state.buffer, { readonly: true });
  const view = new Database(agentViewBuffer(state.buffer, world), { readonly: true });
  try {
    // What an agent reads without the configuration: its tool specs (the query tool's lists the visible schema) and every visible cell.
    const visibleParts: string[] = [JSON.stringify([...agentToolSpecs(world, "direct"), ...CONVERSATION_TOOLS])];
    for (const t of world.world.tables) {
      const visible = t.columns.filter((c) => !c.hidden).map((c) => c.name);
      if (visible.length > 0) for (const r of view.prepare(`SELECT ${visible.map(ident).join(", ")} FROM ${ident(t.name)}`).raw().all() as unknown[][]) visibleParts.push(r.map((v) => String(v)).join("\u0001"));
    }
    const visibleText = visibleParts.join("\n");
    const visibleWords = new Set([...tokens(visibleText), ...visibleParts.slice(1).flatMap((p) => p.split("\u0001"))]);
    for (const t of world.world.tables) {
      for (const c of t.columns.filter((x) => x.hidden)) {
        // A hidden column's name is secret too, unless an agent reads that word anyway (a visible column or a tool spec says it).
        if (!has(visibleText, visibleWords, c.name) && !secret.has(c.name)) secret.set(c.name, { table: t.name, column: c.name });
        for (const [v] of db.prepare(`SELECT DISTINCT ${ident(c.name)} FROM ${ident(t.name)} WHERE ${ident(c.name)} IS NOT NULL`).raw().all() as unknown[][]) {
          const s = String(v);
          if (s.length < 3 || has(visibleText, visibleWords, s)) continue;
          if (!secret.has(s)) secret.set(s, { table: t.name, column: c.name });
        }
      }
    }
  } finally {
    db.close();
    view.close();
  }
  if (byState.size >= KEPT_STATES) byState.delete(byState.keys().next().value as string);
  byState.set(key, secret);
  return secret;
}
