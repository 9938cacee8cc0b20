/** Drafting the decisions of a procedure: `If` items, decision tables, and where their outcomes lead. */
import type { SopProblem } from "../schemas/sop.js";
import type { Block, InlineCode, ListItemBlock, TableBlock } from "../sources/outline-types.js";
import { blocksCodes, blocksText } from "./block-text.js";
import type { ClauseReferences } from "./clause-references.js";
import type { DocInput } from "./extract-context.js";
import { parseIfItem, type OutcomeTarget } from "./parse-decision.js";
import { problem } from "./problems.js";
import type { WorldIndex } from "./world-index.js";

const DECISION_AT = /^Decision\s+at\s+step\s+(\d+)\s*:?$/i;

export type Refs = (text: string, self?: string) => ClauseReferences;

export interface Ctx {
  doc: DocInput;
  world: WorldIndex | null;
  refs: Refs;
  problems: SopProblem[];
  workflow: string;
}

export interface DraftBranch {
  when: string;
  outcome: string;
  codes: InlineCode[];
  line: number;
}

export interface DraftDecision {
  step: number;
  question: string;
  branches: DraftBranch[];
  line_start: number;
  line_end: number;
}

/** Where a problem of this procedure is. */
export function site(ctx: Ctx, line: number) {
  return { document: ctx.doc.meta.id, file: ctx.doc.file, line };
}

/** A decision from an `If …, then …; otherwise …` item (null, and an error, without `then`). */
export function ifDecision(ctx: Ctx, step: number, it: ListItemBlock): DraftDecision | null {
  const parsed = parseIfItem(it.text);
  if (!parsed) {
    ctx.problems.push(problem("SOP_IF_WITHOUT_THEN", `step ${step} of procedure ${ctx.workflow}: an \`If\` item needs \`…, then …\` to separate condition and outcome`, site(ctx, it.line_start), "error"));
    return null;
  }
  const extra = blocksText(it.blocks);
  const codes = [...it.codes, ...blocksCodes(it.blocks)];
  const branches: DraftBranch[] = [{ when: parsed.condition, outcome: [parsed.then, extra].filter((s) => s).join(" "), codes, line: it.line_start }];
  if (parsed.otherwise !== null) branches.push({ when: `otherwise (not: ${parsed.condition})`, outcome: parsed.otherwise, codes, line: it.line_start });
  return { step, question: parsed.condition, branches, line_start: it.line_start, line_end: it.line_end };
}

/** A decision from a table: condition columns, then the outcome column (null, and a review item, with one column). */
export function tableDecision(ctx: Ctx, step: number, t: TableBlock): DraftDecision | null {
  if (t.header.length < 2) {
    ctx.problems.push(problem("SOP_TABLE_ONE_COLUMN", `decision table at step ${step} of procedure ${ctx.workflow} has one column: it needs condition columns and an outcome column`, site(ctx, t.line_start), "review"));
    return null;
  }
  const conditions = t.header.slice(0, -1).map((c) => c.text);
  const branches: DraftBranch[] = [];
  for (const row of t.rows) {
    const outcomeCell = row.cells[t.header.length - 1];
    if (!outcomeCell || outcomeCell.text === "") {
      ctx.problems.push(problem("SOP_TABLE_NO_OUTCOME", `a row of the decision table at step ${step} of procedure ${ctx.workflow} has no outcome`, site(ctx, row.line), "review"));
      continue;
    }
    const when = conditions
      .map((h, i) => [h, row.cells[i]?.text ?? ""] as const)
      .filter(([, v]) => v !== "")
      .map(([h, v]) => `${h}: ${v}`)
      .join("; ");
    const codes = row.cells.flatMap((c) => c.codes);
    branches.push({ when: when === "" ? "(any)" : when, outcome: outcomeCell.text.replace(/\.$/, ""), codes, line: row.line });
  }
  if (branches.length === 0) return null;
  return { step, question: conditions.join(" / "), branches, line_start: t.line_start, line_end: t.line_end };
}

/** Decisions given as `Decision at step N:` followed by a table, after the step list. */
export function tablesAfterList(ctx: Ctx, blocks: readonly Block[], listIndex: number): DraftDecision[] {
  const out: DraftDecision[] = [];
  for (let i = listIndex + 1; i < blocks.length; i++) {
    const b = blocks[i] as Block;
    if (b.type !== "paragraph") continue;
    const m = DECISION_AT.exec(b.text);
    if (!m) continue;
    const next = blocks[i + 1];
    if (!next || next.type !== "table") {
      ctx.problems.push(problem("SOP_DECISION_NO_TABLE", `procedure ${ctx.workflow}: "${b.text}" is not followed by a table`, site(ctx, b.line_start), "review"));
      continue;
    }
    const d = tableDecision(ctx, Number(m[1]), next);
    if (d) out.push(d);
  }
  return out;
}

/** Turn an outcome target into a destination position (null: end), or report a step that does not exist. */
export function resolveTarget(ctx: Ctx, target: OutcomeTarget, at: number, numbers: readonly number[], line: number): { to: number | null; kind: "branch" | "return" | "next" } | null {
  if (target.kind === "end") return { to: null, kind: "branch" };
  if (target.kind === "next") return { to: numbers[at + 1] ?? null, kind: "next" };
  if (!numbers.includes(target.step)) {
    ctx.problems.push(problem("SOP_BAD_STEP_REFERENCE", `procedure ${ctx.workflow} has no step ${target.step} (${target.kind === "return" ? "return to" : "go to"} step ${target.step} at step ${numbers[at]})`, site(ctx, line), "error"));
    return null;
  }
  const backwards = numbers.indexOf(target.step) <= at;
  if (target.kind === "return" && !backwards) {
    ctx.problems.push(problem("SOP_RETURN_FORWARD", `procedure ${ctx.workflow}: "return to step ${target.step}" at step ${numbers[at]} goes forward; it is recorded as a branch`, site(ctx, line), "review"));
  }
  return { to: target.step, kind: backwards ? "return" : "branch" };
}
