import Database from "better-sqlite3";
import type { CheckResult, MutantResult, Task, Trace } from "../../pipeline/schemas/index.js";
import type { z } from "zod";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { applyOverlay, type InitialState } from "../../pipeline/world/build-state.js";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import type { CompiledWorld } from "../../pipeline/world/compile-world.js";
import type { CheckContext } from "../../pipeline/world/types.js";
import { EpisodeConnection } from "../../pipeline/world/connection.js";
import type { KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { replay, type ReplayMismatch } from "../../pipeline/world/replay.js";
import { stateTables } from "../../pipeline/world/schema-sql.js";
import { stateContentHash } from "../../pipeline/world/state-hash.js";
import { runChecks, strictSuccess } from "../checks/index.js";
import { violationOrdinal } from "./release-layout.js";

/** What re-running one golden trace showed. */
export interface GoldenAudit {
  /** Replayed with every event and the final state hash as recorded, and every check passed. */
  passed: boolean;
  /** Replay differences (at most 5), e.g. `event 4 result: recorded …, replayed …`. */
  mismatches: string[];
  checks_total: number;
  /** Checks the replayed golden trace failed, with their reasons. */
  failed_checks: Array<{ check: string; reason: string }>;
}

/** What re-running one stored violation trace showed, against the claim of the validation report. */
export interface MutantAudit {
  /** Release-relative file of the trace. */
  file: string;
  operator: string;
  target_check: string | null;
  /** The validation report's claim: killed or survived (null: the report lists no such mutant). */
  expected_killed: boolean | null;
  /** Re-run: the trace failed its target check. */
  killed: boolean;
  failed_checks: string[];
  /** Replayed as recorded and the outcome matches the report. */
  ok: boolean;
  /** Why not ok; empty when ok. */
  reason: string;
}

export interface TaskAudit {
  domain: string;
  task: string;
  ok: boolean;
  golden: GoldenAudit;
  mutants: MutantAudit[];
  /** Mutants the validation report lists for which the release stores no trace (not re-run). */
  mutants_not_stored: string[];
}

/** The parts of a domain a task audit needs. */
export interface AuditDomain {
  id: string;
  compiled: CompiledWorld;
  base: InitialState;
  documents: readonly KnowledgeDocument[];
}

/** InitialState of stored database bytes: the hash traces record is recomputed from the rows. */
export function storedState(compiled: CompiledWorld, bytes: Buffer, seed: number): InitialState {
  const db = new Database(bytes);
  try {
    return { buffer: bytes, hash: stateContentHash(db, stateTables(compiled.world)), seed };
  } finally {
    db.close();
  }
}

function describeMismatch(m: ReplayMismatch): string {
  const where = m.index === 0 ? m.field : `event ${m.index} ${m.field}`;
  const show = (v: unknown) => {
    const s = v === undefined ? "(none)" : canonicalJson(v);
    return s.length > 80 ? `${s.slice(0, 77)}...` : s;
  };
  return `${where}: recorded ${show(m.recorded)}, replayed ${show(m.replayed)}`;
}

/** What the audit compares of a mutant the validation report records (its description and reason are not needed). */
export type RecordedMutant = Pick<z.infer<typeof MutantResult>, "operator" | "target_check" | "killed" | "failed_checks">;

/** The task's initial state, and the check context over it that every replay of the task shares. */
interface TaskState {
  initial: InitialState;
  ctx: CheckContext;
}

/** Replay a trace on a fresh copy of the task's initial state and judge the replay with the task's checks. */
function rerun(domain: AuditDomain, task: Task, state: TaskState, trace: Trace): { mismatches: string[]; results: CheckResult[] } {
  const r = replay(trace, domain.compiled, state.initial, task, domain.documents);
  return { mismatches: r.mismatches.slice(0, 5).map(describeMismatch), results: runChecks(task, r.trace, state.ctx) };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return canonicalJson([...new Set(a)].sort()) === canonicalJson([...new Set(b)].sort());
}

function auditMutant(
  domain: AuditDomain,
  task: Task,
  state: TaskState,
  stored: { file: string; trace: Trace },
  claim: RecordedMutant | undefined,
): MutantAudit {
  const { mismatches, results } = rerun(domain, task, state, stored.trace);
  const failed = results.filter((r) => !r.passed).map((r) => r.check);
  const target = claim?.target_check ?? null;
  // Without a target check, "killed" can only mean the trace is not a strict success.
  const killed = target !== null ? failed.includes(target) : !strictSuccess(results).strict;
  const out: MutantAudit = { file: stored.file, operator: stored.trace.label, target_check: target, expected_killed: claim?.killed ?? null, killed, failed_checks: failed, ok: false, reason: "" };
  if (!claim) out.reason = `the validation report lists no mutant ${stored.trace.label} of this task for this file`;
  else if (mismatches.length > 0) out.reason = `replay differs from the stored trace: ${mismatches[0]}`;
  else if (killed !== claim.killed) {
    out.reason = claim.killed
      ? `no longer killed: ${target !== null ? `target check ${target} passed` : "every check passed"}`
      : `recorded as a survivor but now fails ${target ?? "a check"}`;
  } else if (!sameSet(failed, claim.failed_checks)) {
    out.reason = `fails [${failed.join(", ")}], the validation report says [${claim.failed_checks.join(", ")}]`;
  } else out.ok = true;
  return out;
}

/**
 * Audit one task: its golden trace must replay exactly from a fresh copy of the domain's initial
 * state plus the task's overlay and pass every check; every stored violation trace must replay
 * exactly and fail (or survive) as the validation report says.
 */
export function auditTask(
  domain: AuditDomain,
  task: Task,
  golden: Trace | undefined,
  violations: ReadonlyArray<{ file: string; trace: Trace }>,
  recorded: ReadonlyArray<RecordedMutant>,
): TaskAudit {
  const initial = applyOverlay(domain.base, domain.compiled.world, task.initial_state, `tasks/${task.id}.json`);
  // One check context for the golden and every violation trace of the task: it reads s0 only (rows
  // answered as fresh copies), so sharing it changes no verdict, and a release of 10,000 tasks with
  // ten traces each no longer opens and prepares a database copy per trace.
  const ctx = createCheckContext(domain.compiled.world, task, initial);
  try {
    return auditWithState(domain, task, { initial, ctx }, golden, violations, recorded);
  } finally {
    ctx.close();
    // The replays' pooled connections on this task's state are of no further use (the next task has its own state).
    EpisodeConnection.drain(initial.buffer);
  }
}

function auditWithState(
  domain: AuditDomain,
  task: Task,
  state: TaskState,
  golden: Trace | undefined,
  violations: ReadonlyArray<{ file: string; trace: Trace }>,
  recorded: ReadonlyArray<RecordedMutant>,
): TaskAudit {
  const checksTotal = task.checks.goal.length + task.checks.process.length + task.checks.protection.length;
  let goldenAudit: GoldenAudit;
  if (!golden) goldenAudit = { passed: false, mismatches: ["no golden trace in the release"], checks_total: checksTotal, failed_checks: [] };
  else {
    const { mismatches, results } = rerun(domain, task, state, golden);
    const failed = results.filter((r) => !r.passed).map((r) => ({ check: r.check, reason: r.reason }));
    goldenAudit = { passed: mismatches.length === 0 && failed.length === 0 && strictSuccess(results).strict, mismatches, checks_total: results.length, failed_checks: failed };
  }
  const claimed = new Set<number>();
  const mutants = violations.map((v) => {
    const label = v.file.slice(v.file.lastIndexOf("/") + 1, -".json".length);
    const ordinal = violationOrdinal(label, v.trace.label);
    // The n-th file of an operator answers to the n-th mutant of that operator in the report.
    const at = ordinal === null ? -1 : recorded.map((m, i) => (m.operator === v.trace.label ? i : -1)).filter((i) => i >= 0)[ordinal - 1] ?? -1;
    if (at >= 0) claimed.add(at);
    return auditMutant(domain, task, state, v, at >= 0 ? recorded[at] : undefined);
  });
  return {
    domain: domain.id,
    task: task.id,
    ok: goldenAudit.passed && mutants.every((m) => m.ok),
    golden: goldenAudit,
    mutants,
    mutants_not_stored: recorded.filter((_, i) => !claimed.has(i)).map((m) => m.operator),
  };
}
