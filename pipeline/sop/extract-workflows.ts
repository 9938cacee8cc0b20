import type { SopBranch, SopDecision, SopProblem, SopStep, SopTransition, SopWorkflow } from "../schemas/sop.js";
import { Slug } from "../schemas/provenance.js";
import type { Block, InlineCode, ListBlock, ListItemBlock, Section } from "../sources/outline-types.js";
import { blocksCodes, blocksText } from "./block-text.js";
import { classifyName, unknownOperationProblems, type DocInput } from "./extract-context.js";
import { outcomeTarget } from "./parse-decision.js";
import { ifDecision, resolveTarget, site, tableDecision, tablesAfterList, type Ctx, type DraftDecision, type Refs } from "./workflow-decisions.js";
import { problem } from "./problems.js";
import { conditionProblem } from "./condition-problems.js";
import { anyOrderGroups, stepDependencies } from "./step-order.js";
import { tablesOfOperation, type WorldIndex } from "./world-index.js";

const PROCEDURE = /^Procedure\s*:\s*/i;
const CUSTOMER_STEP = /^The\s+(?:client|customer|patient|declarant)\b/i;

/** The sections of a procedure: its own and its subsections', stopping at a nested procedure. */
function regionBlocks(sections: readonly Section[], root: Section): Block[] {
  const inside = new Set<number>([root.index]);
  const blocks: Block[] = [...root.blocks];
  for (const s of sections) {
    if (s.index <= root.index || s.parent === null || !inside.has(s.parent)) continue;
    if (PROCEDURE.test(s.title)) continue;
    inside.add(s.index);
    blocks.push(...s.blocks);
  }
  return blocks;
}

/** A step's own text and nested content: decisions from `If` items and tables, the rest is step text. */
function readStep(ctx: Ctx, number: number, it: ListItemBlock): { text: string; codes: InlineCode[]; decisions: DraftDecision[] } {
  const texts = [it.text];
  const codes = [...it.codes];
  const decisions: DraftDecision[] = [];
  for (const b of it.blocks) {
    if (b.type === "list") {
      for (const sub of b.items) {
        if (/^If\b/i.test(sub.text)) {
          const d = ifDecision(ctx, number, sub);
          if (d) decisions.push(d);
        } else {
          texts.push([sub.text, blocksText(sub.blocks)].filter((s) => s).join(" "));
          codes.push(...sub.codes, ...blocksCodes(sub.blocks));
        }
      }
    } else if (b.type === "table") {
      const d = tableDecision(ctx, number, b);
      if (d) decisions.push(d);
    } else if (b.type === "paragraph" || b.type === "quote") {
      texts.push(blocksText([b]));
      codes.push(...blocksCodes([b]));
    }
  }
  return { text: texts.filter((s) => s !== "").join(" "), codes, decisions };
}

function operationsIn(codes: readonly InlineCode[], world: WorldIndex | null): string[] {
  const out: string[] = [];
  for (const c of codes) if (classifyName(c.value, world) === "operation" && !out.includes(c.value)) out.push(c.value);
  return out;
}

/** Any-order statements of the procedure, as position ranges in the step list. */
function orderGroups(ctx: Ctx, blocks: readonly Block[], numbers: readonly number[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const b of blocks) {
    if (b.type !== "paragraph") continue;
    const { groups, unclear } = anyOrderGroups(b.text, b.line_start);
    if (unclear) ctx.problems.push(problem("SOP_ORDER_UNCLEAR", `procedure ${ctx.workflow}: a sentence about step order is not in the form "Steps N and M (or N to M) can be carried out in any order"`, site(ctx, b.line_start), "review"));
    for (const g of groups) {
      const positions = g.steps.map((n) => numbers.indexOf(n));
      const missing = g.steps.filter((_, i) => positions[i] === -1);
      if (missing.length > 0) {
        ctx.problems.push(problem("SOP_BAD_STEP_REFERENCE", `procedure ${ctx.workflow} has no step ${missing.join(", ")} (named in an any-order sentence)`, site(ctx, g.line), "error"));
        continue;
      }
      const from = Math.min(...positions);
      const to = Math.max(...positions);
      if (to - from + 1 !== positions.length) {
        ctx.problems.push(problem("SOP_ORDER_UNCLEAR", `procedure ${ctx.workflow}: steps ${g.steps.join(", ")} are not consecutive, so "any order" cannot be applied without guessing about the steps between`, site(ctx, g.line), "review"));
        continue;
      }
      if (ranges.some(([a, z]) => from <= z && a <= to)) {
        ctx.problems.push(problem("SOP_ORDER_UNCLEAR", `procedure ${ctx.workflow}: any-order steps ${g.steps.join(", ")} overlap another any-order statement`, site(ctx, g.line), "review"));
        continue;
      }
      ranges.push([from, to]);
    }
  }
  return ranges;
}

function buildWorkflow(ctx: Ctx, section: Section, list: ListBlock, region: readonly Block[]): SopWorkflow | null {
  const { doc, world, refs } = ctx;
  const numbers = list.items.map((it, i) => it.number ?? i + 1);
  const idOf = (n: number) => `s${n}`;
  const steps: SopStep[] = [];
  const drafts: DraftDecision[] = [];
  const clauses: string[] = [];
  const tables = new Set<string>();
  const noteClauses = (ids: readonly string[]) => {
    for (const c of ids) if (!clauses.includes(c)) clauses.push(c);
  };
  const noteOperation = (op: string) => {
    const o = world?.operations.get(op);
    if (o) for (const t of tablesOfOperation(o)) tables.add(t);
  };
  list.items.forEach((it, i) => {
    const number = numbers[i] as number;
    const read = readStep(ctx, number, it);
    drafts.push(...read.decisions);
    const decisionCodes = read.decisions.flatMap((d) => d.branches.flatMap((b) => b.codes));
    ctx.problems.push(...unknownOperationProblems(decisionCodes, doc, world, `step ${number} of procedure ${ctx.workflow} (decision)`));
    ctx.problems.push(...unknownOperationProblems(read.codes, doc, world, `step ${number} of procedure ${ctx.workflow}`));
    const ops = operationsIn(read.codes, world);
    if (ops.length > 1) {
      ctx.problems.push(problem("SOP_STEP_SEVERAL_OPERATIONS", `step ${number} of procedure ${ctx.workflow} names ${ops.map((o) => `\`${o}\``).join(", ")}; a step names at most one operation, so none is recorded`, site(ctx, it.line_start), "review"));
    }
    for (const c of read.codes) if (classifyName(c.value, world) === "table") tables.add(c.value);
    const operation = ops.length === 1 ? (ops[0] as string) : null;
    if (operation) noteOperation(operation);
    const text = read.text === "" ? "(no text)" : read.text;
    if (read.text === "") ctx.problems.push(problem("SOP_EMPTY_STEP", `step ${number} of procedure ${ctx.workflow} has no text`, site(ctx, it.line_start), "review"));
    const r = refs(read.text, it.clause?.id);
    noteClauses(it.clause ? [it.clause.id, ...r.known] : r.known);
    const clause = it.clause?.id ?? r.known[0];
    const actor = (operation && world?.operations.get(operation)?.side === "customer") || CUSTOMER_STEP.test(text) ? "customer" : "agent";
    steps.push({
      id: idOf(number),
      number,
      text,
      actor,
      operation,
      requires: [],
      provenance: { document: doc.meta.id, version: doc.meta.version, line_start: it.line_start, line_end: it.line_end, ...(clause ? { clause } : {}) },
    });
  });
  const listIndex = region.indexOf(list);
  drafts.push(...tablesAfterList(ctx, region, listIndex));
  const deps = stepDependencies(steps.length, orderGroups(ctx, region.slice(listIndex + 1), numbers));
  steps.forEach((s, i) => {
    s.requires = (deps[i] ?? []).map((p) => (steps[p] as SopStep).id);
  });

  const decisions: SopDecision[] = [];
  const transitions: SopTransition[] = steps.map((s, i) => ({ from: s.id, to: steps[i + 1]?.id ?? null, kind: "next" as const, when: null }));
  drafts.sort((a, b) => a.line_start - b.line_start);
  for (const d of drafts) {
    const at = numbers.indexOf(d.step);
    if (at < 0) {
      ctx.problems.push(problem("SOP_BAD_STEP_REFERENCE", `procedure ${ctx.workflow} has no step ${d.step} (decision table)`, site(ctx, d.line_start), "error"));
      continue;
    }
    const atId = idOf(d.step);
    const stepClause = steps[at]?.provenance.clause ?? null;
    const branches: SopBranch[] = [];
    for (const b of d.branches) {
      const { target, ambiguous, unclear } = outcomeTarget(b.outcome);
      if (ambiguous) ctx.problems.push(problem("SOP_OUTCOME_AMBIGUOUS", `step ${d.step} of procedure ${ctx.workflow}: outcome "${b.outcome}" names several destinations; the first is used`, site(ctx, b.line), "review"));
      if (unclear) ctx.problems.push(problem("SOP_OUTCOME_UNCLEAR", `step ${d.step} of procedure ${ctx.workflow}: outcome "${b.outcome}" mentions a step without "go to", "continue with" or "return to"; it is read as continuing with the next step`, site(ctx, b.line), "review"));
      const resolved = resolveTarget(ctx, target, at, numbers, b.line);
      if (!resolved) continue;
      const unread = conditionProblem(b.when, world);
      if (unread) ctx.problems.push(problem("SOP_CONDITION_UNREAD", `step ${d.step} of procedure ${ctx.workflow}: the condition "${b.when}" ${unread}; the task designer cannot decide it and tries every branch the world allows`, site(ctx, b.line), "review"));
      // An If item's codes belong to the branch whose outcome names them.
      const own = b.codes.filter((c) => b.outcome.includes(`\`${c.value}\``) || b.when.includes(`\`${c.value}\``));
      const operations = operationsIn(own, world);
      for (const op of operations) noteOperation(op);
      for (const c of own) if (classifyName(c.value, world) === "table") tables.add(c.value);
      const r = refs(`${b.when} ${b.outcome}`);
      noteClauses(r.known);
      branches.push({ when: b.when, condition: null, goto: resolved.to === null ? null : idOf(resolved.to), outcome: b.outcome, rule: r.known[0] ?? stepClause, operations });
      if (resolved.kind !== "next") transitions.push({ from: atId, to: resolved.to === null ? null : idOf(resolved.to), kind: resolved.kind, when: b.when });
    }
    if (branches.length === 0) continue;
    const clause = branches.find((b) => b.rule)?.rule ?? undefined;
    decisions.push({
      id: `d${decisions.length + 1}`,
      at_step: atId,
      question: d.question,
      branches,
      provenance: { document: doc.meta.id, version: doc.meta.version, line_start: d.line_start, line_end: d.line_end, ...(clause ? { clause } : {}) },
    });
  }
  return {
    id: section.anchor as string,
    title: section.title.replace(PROCEDURE, "") || (section.anchor as string),
    document: doc.meta.id,
    version: doc.meta.version,
    steps,
    decisions,
    transitions,
    return_paths: transitions.filter((t) => t.kind === "return"),
    resources: [...tables].sort(),
    rules: [...clauses].sort(),
    provenance: { document: doc.meta.id, version: doc.meta.version, line_start: section.line_start, line_end: section.line_end },
  };
}

/**
 * Workflows of one document version: every heading `Procedure: … {#id}` with its first ordered
 * list as steps. Errors: no id (`SOP_PROCEDURE_NO_ID`), a bad id, no step list
 * (`SOP_PROCEDURE_NO_STEPS`), unknown operations, `If` without `then`, references to missing steps.
 */
export function extractWorkflows(doc: DocInput, world: WorldIndex | null, refs: Refs): { workflows: SopWorkflow[]; problems: SopProblem[] } {
  const problems: SopProblem[] = [];
  const workflows: SopWorkflow[] = [];
  const seen = new Map<string, number>();
  for (const section of doc.outline.sections) {
    if (section.depth === 0 || !PROCEDURE.test(section.title)) continue;
    const at = { document: doc.meta.id, file: doc.file, line: section.line_start };
    if (section.anchor === null) {
      problems.push(problem("SOP_PROCEDURE_NO_ID", `procedure heading "${section.title}" has no id: end the heading with {#workflow-id}`, at, "error"));
      continue;
    }
    if (!Slug.safeParse(section.anchor).success) {
      problems.push(problem("SOP_PROCEDURE_BAD_ID", `procedure id "{#${section.anchor}}" must be lowercase letters, digits, '-' or '_'`, at, "error"));
      continue;
    }
    const prev = seen.get(section.anchor);
    if (prev !== undefined) {
      problems.push(problem("SOP_DUPLICATE_WORKFLOW", `procedure id ${section.anchor} is used twice in ${doc.meta.id}@${doc.meta.version} (first on line ${prev})`, at, "error"));
      continue;
    }
    seen.set(section.anchor, section.line_start);
    const region = regionBlocks(doc.outline.sections, section);
    const list = region.find((b): b is ListBlock => b.type === "list" && b.ordered);
    if (!list) {
      problems.push(problem("SOP_PROCEDURE_NO_STEPS", `procedure ${section.anchor} has no numbered step list`, at, "error"));
      continue;
    }
    const ctx: Ctx = { doc, world, refs, problems, workflow: section.anchor };
    const wf = buildWorkflow(ctx, section, list, region);
    if (wf) workflows.push(wf);
  }
  return { workflows, problems };
}
