import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import PQueue from "p-queue";
import type { z } from "zod";
import { structuredCall, type StructuredCallOptions } from "../llm/structured-output.js";
import type { SopDecision, SopProblem, SopRule, SopStep, SopTransition, SopWorkflow } from "../schemas/sop.js";
import { isClauseId } from "../sources/clause-id.js";
import type { DocInput } from "./extract-context.js";
import type { DeterministicResult } from "./extract-deterministic.js";
import { LlmChunkAnswer, type LlmRule, type LlmWorkflow } from "./llm-answer-schema.js";
import { chunkDocument, type Chunk } from "./llm-chunks.js";
import { SOP_EXTRACTION_PROMPT } from "./llm-prompt.js";
import { problem } from "./problems.js";
import { tablesOfOperation, type WorldIndex } from "./world-index.js";

export interface LlmExtractOptions {
  /** The extractor's model; a RuntimeChatModel brings the one retry budget and timeout of the configuration. */
  model: StructuredCallOptions<z.ZodType>["model"];
  /** Plain models only: calls per chunk at most, retries included (default 3). */
  maxAttempts?: number;
  /** Plain models only: time bound of one call in ms (default 60000). */
  timeoutMs?: number;
  /** Ask with the provider's own structured output (default false: the schema in the prompt). */
  native?: boolean;
  /** Chunks in flight at once (default 4). */
  concurrency?: number;
  /** Largest chunk in characters (default 8000). */
  maxChunkChars?: number;
  /** Which documents the model reads: `prose` (default: those with no clause anchor and no procedure) or `all`. */
  documents?: "prose" | "all";
}

export interface LlmExtraction {
  rules: SopRule[];
  workflows: SopWorkflow[];
  problems: SopProblem[];
}

/** Lowercase, markup and whitespace removed: what "the lines contain the text" compares. */
function norm(s: string): string {
  return s.toLowerCase().replace(/[*`_>#|]/g, " ").replace(/^\s*(?:\d+[.)]|[-+])\s+/gm, " ").replace(/\s+/g, " ").trim();
}

/** Whether lines [a, z] of the chunk lie inside it and contain `quote`. */
function quoted(chunk: Chunk, a: number, z: number, quote: string): boolean {
  if (a < chunk.line_start || z > chunk.line_end || z < a) return false;
  const text = norm(chunk.lines.slice(a - chunk.line_start, z - chunk.line_start + 1).join("\n"));
  return text.includes(norm(quote).replace(/\.$/, ""));
}

interface ChunkJob {
  doc: DocInput;
  chunk: Chunk;
}

function worldNote(world: WorldIndex | null): string {
  if (!world) return "No operations or tables are known for this domain.";
  const ops = [...world.operations.values()].map((o) => `- ${o.name} (${o.side}, ${o.access}): ${o.description}`).join("\n");
  return `Operations:\n${ops}\n\nTables: ${[...world.tables].join(", ")}`;
}

function toRule(job: ChunkJob, r: LlmRule, world: WorldIndex | null, problems: SopProblem[]): SopRule {
  const { doc, chunk } = job;
  const site = { document: doc.meta.id, file: doc.file, line: r.line_start };
  const ok = quoted(chunk, r.line_start, r.line_end, r.statement);
  if (!ok) problems.push(problem("SOP_LLM_PROVENANCE", `model rule "${r.statement.slice(0, 60)}" is not found on lines ${r.line_start}-${r.line_end}; recorded with the chunk's lines ${chunk.line_start}-${chunk.line_end}`, { ...site, line: chunk.line_start }, "review"));
  if (r.uncertain) problems.push(problem("SOP_LLM_UNCERTAIN", `the model is not sure of rule "${r.statement.slice(0, 60)}"`, site, "review"));
  let clause = r.clause;
  if (clause !== null && !(isClauseId(clause) && chunk.lines.join("\n").includes(clause))) {
    problems.push(problem("SOP_LLM_UNKNOWN_CLAUSE", `the model gave clause id "${clause}", which is not printed in the chunk; dropped`, site, "review"));
    clause = null;
  }
  const affected: string[] = [];
  for (const name of r.affected_objects) {
    if (world && (world.operations.has(name) || world.tables.has(name))) {
      if (!affected.includes(name)) affected.push(name);
    } else problems.push(problem("SOP_LLM_UNKNOWN_OBJECT", `the model named "${name}" as affected by a rule, but it is neither an operation nor a table; dropped`, site, "review"));
  }
  const [a, z] = ok ? [r.line_start, r.line_end] : [chunk.line_start, chunk.line_end];
  return {
    id: clause ?? `${doc.meta.id}:L${a}`,
    statement: r.statement,
    document: doc.meta.id,
    version: doc.meta.version,
    effective_from: doc.meta.effective_from,
    effective_to: doc.meta.effective_to,
    scope: doc.meta.scope,
    affected_objects: affected.sort(),
    prerequisites: r.prerequisites,
    action: r.action,
    exceptions: r.exceptions,
    formal_rule: null,
    status: doc.status,
    provenance: { document: doc.meta.id, version: doc.meta.version, line_start: a, line_end: z, ...(clause ? { clause } : {}) },
  };
}

function toWorkflow(job: ChunkJob, w: LlmWorkflow, world: WorldIndex | null, problems: SopProblem[]): SopWorkflow {
  const { doc, chunk } = job;
  const site = (line: number) => ({ document: doc.meta.id, file: doc.file, line });
  const prov = (a: number, z: number, text: string) => (quoted(chunk, a, z, text) ? { line_start: a, line_end: z, found: true } : { line_start: chunk.line_start, line_end: chunk.line_end, found: false });
  if (w.uncertain) problems.push(problem("SOP_LLM_UNCERTAIN", `the model is not sure of procedure ${w.id}`, site(w.line_start), "review"));
  const steps = [...w.steps].sort((a, b) => a.number - b.number);
  const numbers = steps.map((s) => s.number);
  const tables = new Set<string>();
  const out: SopStep[] = steps.map((s, i) => {
    const p = prov(s.line_start, s.line_end, s.text);
    if (!p.found) problems.push(problem("SOP_LLM_PROVENANCE", `step ${s.number} of model procedure ${w.id} is not found on lines ${s.line_start}-${s.line_end}`, site(chunk.line_start), "review"));
    let operation = s.operation;
    if (operation !== null && !world?.operations.has(operation)) {
      problems.push(problem("SOP_LLM_UNKNOWN_OPERATION", `step ${s.number} of model procedure ${w.id} names operation "${operation}", which world.yaml does not have; recorded without an operation`, site(p.line_start), "review"));
      operation = null;
    }
    const op = operation ? world?.operations.get(operation) : undefined;
    if (op) for (const t of tablesOfOperation(op)) tables.add(t);
    return {
      id: `s${s.number}`,
      number: s.number,
      text: s.text,
      actor: op?.side === "customer" ? "customer" : s.actor,
      operation,
      requires: i === 0 ? [] : [`s${(steps[i - 1] as (typeof steps)[number]).number}`],
      provenance: { document: doc.meta.id, version: doc.meta.version, line_start: p.line_start, line_end: p.line_end },
    };
  });
  const transitions: SopTransition[] = out.map((s, i) => ({ from: s.id, to: out[i + 1]?.id ?? null, kind: "next" as const, when: null }));
  const decisions: SopDecision[] = [];
  for (const d of w.decisions) {
    if (!numbers.includes(d.at_step)) {
      problems.push(problem("SOP_LLM_BAD_STEP", `model procedure ${w.id} has a decision at step ${d.at_step}, which it does not have; dropped`, site(w.line_start), "review"));
      continue;
    }
    const at = numbers.indexOf(d.at_step);
    const branches = d.branches.flatMap((b) => {
      if ((b.kind === "goto" || b.kind === "return") && (b.step === null || !numbers.includes(b.step))) {
        problems.push(problem("SOP_LLM_BAD_STEP", `model procedure ${w.id}: branch "${b.when}" at step ${d.at_step} goes to step ${b.step}, which does not exist; dropped`, site(w.line_start), "review"));
        return [];
      }
      const to = b.kind === "end" ? null : b.kind === "next" ? (numbers[at + 1] ?? null) : b.step;
      if (b.kind !== "next") transitions.push({ from: `s${d.at_step}`, to: to === null ? null : `s${to}`, kind: b.kind === "return" ? "return" : "branch", when: b.when });
      return [{ when: b.when, condition: null, goto: to === null ? null : `s${to}`, outcome: b.outcome, rule: null, operations: [] }];
    });
    if (branches.length > 0) {
      const stepProv = out[at]?.provenance ?? { document: doc.meta.id, version: doc.meta.version, line_start: chunk.line_start, line_end: chunk.line_end };
      decisions.push({ id: `d${decisions.length + 1}`, at_step: `s${d.at_step}`, question: d.question, branches, provenance: stepProv });
    }
  }
  const wp = w.line_start >= chunk.line_start && w.line_end <= chunk.line_end && w.line_end >= w.line_start ? [w.line_start, w.line_end] : [chunk.line_start, chunk.line_end];
  return {
    id: w.id,
    title: w.title,
    document: doc.meta.id,
    version: doc.meta.version,
    steps: out,
    decisions,
    transitions,
    return_paths: transitions.filter((t) => t.kind === "return"),
    resources: [...tables].sort(),
    rules: [],
    provenance: { document: doc.meta.id, version: doc.meta.version, line_start: wp[0] as number, line_end: wp[1] as number },
  };
}

/**
 * The LLM strategy: the model reads documents chunk by chunk (sections, bounded size) and answers
 * with JSON checked by a zod schema (retries show it its errors). A refusal or a timeout marks that
 * chunk failed (a review problem with the reason) and the other chunks go on. Results are merged in
 * chunk order, deduplicated by clause id (or statement) and workflow id; deterministic results win.
 * Items the model marks uncertain, or whose cited lines do not contain their text, are flagged.
 */
export async function extractWithLlm(det: DeterministicResult, opts: LlmExtractOptions): Promise<LlmExtraction> {
  const which = opts.documents ?? "prose";
  const structured = new Set(det.sop.rules.map((r) => `${r.document}@${r.version}`).concat(det.sop.workflows.map((w) => `${w.document}@${w.version}`)));
  const docs = det.docs.filter((d) => which === "all" || (!structured.has(`${d.meta.id}@${d.meta.version}`) && d.outline.anchors.length === 0 && !d.outline.sections.some((s) => /^Procedure\s*:/i.test(s.title))));
  const jobs: ChunkJob[] = [];
  for (const doc of docs) {
    for (const chunk of chunkDocument(doc.text, doc.outline, opts.maxChunkChars ?? 8000)) jobs.push({ doc, chunk });
  }
  const queue = new PQueue({ concurrency: opts.concurrency ?? 4 });
  const system = new SystemMessage(`${SOP_EXTRACTION_PROMPT}\n\n${worldNote(det.world)}`);
  const answers = await Promise.all(
    jobs.map((job) =>
      queue.add(() =>
        structuredCall({
          model: opts.model,
          schema: LlmChunkAnswer,
          name: `${job.doc.file} lines ${job.chunk.line_start}-${job.chunk.line_end}`,
          native: opts.native ?? false,
          ...(opts.maxAttempts !== undefined ? { maxAttempts: opts.maxAttempts } : {}),
          ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
          messages: [system, new HumanMessage(`Document ${job.doc.meta.id} version ${job.doc.meta.version} ("${job.doc.meta.title}"), lines ${job.chunk.line_start}-${job.chunk.line_end}:\n\n${job.chunk.numbered}`)],
        }),
      ),
    ),
  );
  const out: LlmExtraction = { rules: [], workflows: [], problems: [] };
  // Keys already taken: clause ids (or normalised statements) per document version, and rule ids.
  const seen = new Set(det.sop.rules.map((r) => `${r.document}@${r.version}#${r.id}`));
  const ids = new Set(seen);
  const workflowIds = new Set(det.sop.workflows.map((w) => w.id));
  answers.forEach((a, i) => {
    const job = jobs[i] as ChunkJob;
    const version = `${job.doc.meta.id}@${job.doc.meta.version}`;
    const site = { document: job.doc.meta.id, file: job.doc.file, line: job.chunk.line_start };
    if (!a.ok) {
      // An error, not a review note: the document is only partly read, so its SOP must not be written as if it were whole.
      out.problems.push(problem("SOP_LLM_FAILED", `lines ${job.chunk.line_start}-${job.chunk.line_end} were not extracted (${a.error.kind} after ${a.attempts} attempt${a.attempts === 1 ? "" : "s"}): ${a.error.message}`, site, "error"));
      return;
    }
    for (const r of a.value.rules) {
      const key = `${version}#${r.clause ?? `text:${norm(r.statement)}`}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const rule = toRule(job, r, det.world, out.problems);
      // Rules without a printed clause get `<document>:L<line>`; a second one on the same line gets a suffix.
      const base = rule.id;
      for (let n = 2; ids.has(`${version}#${rule.id}`); n++) rule.id = `${base}.${n}`;
      ids.add(`${version}#${rule.id}`);
      const formal = rule.provenance.clause ? [...(det.world?.rulesByClause.get(`${rule.document}\u0000${rule.provenance.clause}`) ?? [])].sort((x, y) => x.id.localeCompare(y.id))[0] : undefined;
      if (formal) rule.formal_rule = formal.id;
      out.rules.push(rule);
    }
    for (const w of a.value.workflows) {
      if (workflowIds.has(w.id)) continue;
      workflowIds.add(w.id);
      out.workflows.push(toWorkflow(job, w, det.world, out.problems));
    }
  });
  return out;
}
