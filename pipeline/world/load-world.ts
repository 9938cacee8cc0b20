import { readFileSync } from "node:fs";
import { inheritValueWords } from "./value-words.js";
import { LineCounter, isMap, parseDocument, visit, type Document } from "yaml";
import type { z } from "zod";
import { WorldModel } from "../schemas/index.js";
import { WorldSource } from "../schemas/world-source.js";
import { expandWorld } from "./expand-world.js";
import type { FoundryIssue } from "../core/errors.js";
import { yamlData } from "../core/yaml-source.js";
import { ProblemList, WorldInvalidError, formatPath, type PathSegment, type WorldProblem } from "./world-problems.js";
import { checkWorldStructure } from "./check-world-structure.js";
import { checkWorldSql } from "./check-world-sql.js";

/** A checked world model: `world` is set only when there are no problems. */
export interface WorldCheckResult {
  world: WorldModel | null;
  problems: FoundryIssue[];
}

type Locate = (path: readonly PathSegment[]) => number | undefined;

function toIssue(p: WorldProblem, file: string, locate?: Locate): FoundryIssue {
  const issue: FoundryIssue = { code: p.code, message: p.message, file, path: formatPath(p.path) };
  const line = locate?.(p.path);
  if (line !== undefined) issue.line = line;
  if (p.value !== undefined) issue.value = p.value;
  return issue;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let cur = root;
  for (const seg of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

const GENERATOR_FORMS = "seq, choice (+weights), int (+step), real (+decimals), faker, ref, const";

/** zod issues as world problems, one per unknown key, with messages that name the accepted forms. */
function schemaProblems(error: z.ZodError, input: unknown): WorldProblem[] {
  const out: WorldProblem[] = [];
  for (const iss of error.issues) {
    const path = iss.path.filter((s): s is string | number => typeof s !== "symbol");
    if (iss.code === "unrecognized_keys") {
      for (const key of iss.keys) out.push({ code: "WORLD_SCHEMA", message: `unknown key "${key}"`, path: [...path, key] });
      continue;
    }
    let message = iss.message;
    if (iss.code === "invalid_union") {
      message = path.includes("fields") && path.includes("generate") ? `not a generator; use one of: ${GENERATOR_FORMS}` : "does not match any accepted form";
    }
    const p: WorldProblem = { code: "WORLD_SCHEMA", message, path };
    const v = valueAt(input, path);
    if (v !== undefined && (v === null || typeof v !== "object")) p.value = v;
    out.push(p);
  }
  return out;
}

/**
 * Schema of world.yaml as written, then its shorthands expanded (expand-world.ts), then the
 * semantic and SQL checks on the expanded model; every problem points at where it was written.
 */
function checkModel(input: unknown, file: string, locate?: Locate): WorldCheckResult {
  const source = WorldSource.safeParse(input);
  if (!source.success) {
    return { world: null, problems: schemaProblems(source.error, input).map((p) => toIssue(p, file, locate)) };
  }
  const expanded = expandWorld(source.data);
  const back = (p: WorldProblem): WorldProblem => ({ ...p, path: expanded.sourcePath(p.path) });
  if (expanded.problems.length > 0) return { world: null, problems: expanded.problems.map((p) => toIssue(p, file, locate)) };
  const parsed = WorldModel.safeParse(expanded.model);
  if (!parsed.success) {
    return { world: null, problems: schemaProblems(parsed.error, expanded.model).map(back).map((p) => toIssue(p, file, locate)) };
  }
  const out = new ProblemList();
  checkWorldStructure(parsed.data, out);
  checkWorldSql(parsed.data, out);
  const problems = out.items.map(back).map((p) => toIssue(p, file, locate));
  return { world: problems.length === 0 ? inheritValueWords(parsed.data) : null, problems };
}

/**
 * Keys without a value in a flow mapping (`{ description: The count, as reported. }`): YAML reads
 * the text after an unquoted comma as a key of its own. No key of world.yaml is ever written
 * without a value, so each one is reported as the YAML slip it is, with its line.
 */
function flowCommaSlips(doc: Document, lines: LineCounter, file: string): FoundryIssue[] {
  const out: FoundryIssue[] = [];
  visit(doc, {
    Pair(_key, pair, path) {
      const parent = path[path.length - 1];
      if (!isMap(parent) || !parent.flow || pair.value !== null) return;
      const key = pair.key as { range?: [number, number, number]; toString(): string } | null;
      if (!key?.range) return;
      const text = String(key);
      out.push({
        code: "WORLD_YAML",
        message: `unquoted \`,\` in a flow mapping: the text after it, "${text}", was read as a key of its own; quote the value that holds the comma (e.g. description: "…, ${text}")`,
        file,
        line: lines.linePos(key.range[0]).line,
        value: text,
      });
    },
  });
  return out;
}

/** Validate an in-memory world model (no line numbers); never throws for problems in the model. */
export function validateWorld(input: unknown, fileLabel = "world.yaml"): WorldCheckResult {
  return checkModel(input, fileLabel);
}

/** Line of the deepest YAML node on `path` that exists (1-based). */
function locator(doc: Document, lines: LineCounter): Locate {
  return (path) => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === "object" && Array.isArray(node.range)) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
}

/** Parse and check world.yaml text; problems carry `file`, `line` and field `path`. */
export function parseWorld(text: string, fileLabel = "world.yaml"): WorldCheckResult {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const problems = doc.errors.map((e) => ({
      code: "WORLD_YAML",
      message: e.message.split("\n")[0] ?? e.message,
      file: fileLabel,
      line: lines.linePos(e.pos[0]).line,
    }));
    return { world: null, problems };
  }
  const data = yamlData(doc, lines, fileLabel);
  if ("issue" in data) return { world: null, problems: [data.issue] };
  const slips = flowCommaSlips(doc, lines, fileLabel);
  const checked = checkModel(data.value, fileLabel, locator(doc, lines));
  if (slips.length === 0) return checked;
  // The slip's key also fails the schema as an unknown key: say it once, as the YAML slip.
  const slipped = new Set(slips.map((s) => `${s.line}\u0000${String(s.value)}`));
  const rest = checked.problems.filter((p) => !(p.code === "WORLD_SCHEMA" && slipped.has(`${p.line}\u0000${/^unknown key "(.*)"$/.exec(p.message)?.[1]}`)));
  return { world: null, problems: [...slips, ...rest] };
}

/** Read and check a world.yaml file; problems are returned, not thrown. */
export function readWorld(file: string, fileLabel = file): WorldCheckResult {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return { world: null, problems: [{ code: "WORLD_READ", message: `cannot read the world model: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, file: fileLabel }] };
  }
  return parseWorld(text, fileLabel);
}

/** Read a world.yaml file; throws a WorldInvalidError carrying every problem in `.issues`. */
export function loadWorld(file: string, fileLabel = file): WorldModel {
  const res = readWorld(file, fileLabel);
  if (!res.world) throw new WorldInvalidError(fileLabel, res.problems);
  return res.world;
}
