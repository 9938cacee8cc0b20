// Replay and checks on the sample release's own golden traces: every golden trace of the newest
// sample release replayed from its task's initial state (the domain's s0 with the task's overlay)
// and judged by all of the task's checks; replays per CPU-second of this process, and the cost per
// world call against the raw SQL that call issues (the approach of bench/world-replay.ts applied to
// the release's worlds). A script of its own, not a mode of world-replay.ts: other inputs (44 real
// tasks of 3 domains instead of one synthetic 10-call trace), other targets, its own section of
// BENCHMARKS.md, and `npm run bench` runs each script once with its defaults.
// Run: `nice -n 5 node --import tsx bench/release-replay.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures, `--runs N` repeats the measurement and reports the
// least disturbed run; `--smoke`: three tasks, one round, targets not judged).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { availableParallelism, cpus, getPriority, loadavg } from "node:os";
import Database from "better-sqlite3";
import Table from "cli-table3";
import type { ScheduledEvent, Trace, TraceEvent } from "../pipeline/schemas/index.js";
import { loadEvalRelease, type EvalTask } from "../pipeline/evaluate/load-release.js";
import { latestVersion } from "../pipeline/build/sample-release.js";
import { initialStateFor } from "../validation/initial-states.js";
import { replay } from "../pipeline/world/replay.js";
import { Episode } from "../pipeline/world/episode.js";
import { createCheckContext } from "../pipeline/world/check-context.js";
import type { CompiledWorld } from "../pipeline/world/compile-world.js";
import type { InitialState } from "../pipeline/world/build-state.js";
import { encodeTerms, termsOf } from "../pipeline/world/approvals.js";
import { parseArgs } from "../pipeline/world/args.js";
import { runChecks } from "../validation/checks/index.js";
import type { ToolCall } from "../pipeline/world/types.js";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";
import { arg, median, ratio, timeInterleaved } from "./lib/measure.js";
import { statementCache } from "./lib/statement-cache.js";

const START = "<!-- release-replay:start -->";
const END = "<!-- release-replay:end -->";
const RELEASES = fileURLToPath(new URL("../generated/releases", import.meta.url));
const VERSION = latestVersion(RELEASES, "sample") ?? "missing";
const TARGETS = { replays_per_cpu_s_min: 4000, per_call_ratio_max: 2 };

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** A statement and how it is run: named bindings of the call, or positional parameters. */
interface Stmt {
  sql: string;
  mode: "get" | "run" | "all";
  bind: Record<string, unknown> | unknown[];
  /** A precondition: its first column must hold. An approval: it must change one row. */
  expect?: "holds" | "one-row";
}

/** One world call as raw SQL: checks, then (for a writing operation) a savepoint around the writes and the result. */
interface RawCall {
  checks: Stmt[];
  writes: Stmt[] | null;
  result: Stmt | null;
}

interface Prepared {
  item: EvalTask;
  initial: InitialState;
  compiled: CompiledWorld;
  ctx: ReturnType<typeof createCheckContext>;
  /** The world-operation calls of the golden trace (what the raw SQL stands for). */
  opCalls: ToolCall[];
  raw: RawCall[];
  events: number;
  calls: number;
  statements: number;
}

/** The call kinds of a trace: tool calls, proposals and approvals (messages and scheduled events are not calls). */
const isCall = (e: TraceEvent) => e.kind === "tool_call" || e.kind === "proposal" || e.kind === "approval" || e.kind === "wait";

/**
 * The SQL a golden call issues, with the runtime's bindings (run-operation.ts: integers and `:now`,
 * `:call` as BigInt, booleans as 0/1, lists as JSON) and the `_proposals` statements of approvals.ts,
 * computed once here so that the raw run does nothing but SQL.
 */
function rawCallOf(compiled: CompiledWorld, e: TraceEvent): RawCall {
  const cop = compiled.operations.get(e.name);
  if (!cop) throw new Error(`${e.name} is not a world operation`);
  const { op } = cop;
  const parsed = parseArgs(cop.args, e.args);
  if (!parsed.ok) throw new Error(`golden call ${e.name} has bad arguments: ${parsed.error.message}`);
  const args = parsed.value;
  const bind: Record<string, unknown> = {};
  for (const k of cop.paramNames) {
    const v = args[k];
    bind[k] = v === undefined ? null : typeof v === "boolean" ? (v ? 1n : 0n) : typeof v === "number" && cop.integerParams.has(k) ? BigInt(v) : Array.isArray(v) ? JSON.stringify(v) : v;
  }
  bind.now = BigInt(e.time);
  bind.actor = e.actor;
  bind.call = BigInt(e.index);
  const checks: Stmt[] = op.preconditions.map((p) => ({ sql: p.sql, mode: "get", bind, expect: "holds" }));
  const result: Stmt | null = op.result ? { sql: op.result.sql, mode: op.result.many ? "all" : "get", bind } : null;
  if (!cop.writes) return { checks, writes: null, result };
  const writes: Stmt[] = [];
  const now = e.time;
  if (op.approves !== undefined) writes.push({ sql: "UPDATE _proposals SET status = 'approved', approved_at = ?, approved_by = ? WHERE proposal_id = ? AND kind = ? AND status = 'pending'", mode: "run", bind: [now, e.actor, String(args.proposal_id), op.approves], expect: "one-row" });
  if (op.requires_approval) {
    const { hash } = encodeTerms(termsOf(op.requires_approval.terms, args));
    writes.push({ sql: "SELECT proposal_id FROM _proposals WHERE kind = ? AND terms_hash = ? AND status = 'approved' ORDER BY created_at, proposal_id LIMIT 1", mode: "get", bind: [op.requires_approval.kind, hash], expect: "holds" });
  }
  for (const eff of op.effects) writes.push({ sql: eff.sql, mode: "run", bind });
  if (op.requires_approval) writes.push({ sql: "UPDATE _proposals SET status = 'consumed', consumed_at = ? WHERE proposal_id = ?", mode: "run", bind: [now, e.proposal_id ?? null], expect: "one-row" });
  if (op.proposes) {
    const { json, hash } = encodeTerms(termsOf(op.proposes.terms, args));
    writes.push({
      sql: "INSERT INTO _proposals (proposal_id, kind, operation, terms_json, terms_hash, status, created_at, actor) VALUES ('PR-' || printf('%04d', (SELECT count(*) FROM _proposals) + 1), ?, ?, ?, ?, 'pending', ?, ?) RETURNING proposal_id",
      mode: "get",
      bind: [op.proposes.kind, op.name, json, hash, now, e.actor],
    });
  }
  return { checks, writes, result };
}

/** The statements of a scheduled event that fired, bound as the runtime binds them (episode.ts `#fire`). */
function rawEventOf(compiled: CompiledWorld, taskEvents: readonly ScheduledEvent[], e: TraceEvent): RawCall {
  const ev = [...compiled.world.events, ...taskEvents].find((x) => x.id === e.name);
  if (!ev) throw new Error(`scheduled event ${e.name} is neither in the world nor in the task`);
  const bind = { now: BigInt(e.time), actor: "system", call: BigInt(e.index) };
  return { checks: [], writes: ev.effects.map((eff) => ({ sql: eff.sql, mode: "run" as const, bind })), result: null };
}

function exec(st: (sql: string) => Database.Statement, s: Stmt, verify: boolean): void {
  const stmt = st(s.sql);
  const params = Array.isArray(s.bind) ? s.bind : [s.bind];
  if (s.mode === "run") {
    const r = stmt.run(...params);
    if (verify && s.expect === "one-row" && r.changes !== 1) throw new Error(`raw: ${s.sql} changed ${r.changes} rows`);
  } else if (s.mode === "all") stmt.all(...params);
  else {
    const row = stmt.raw(true).get(...params) as unknown[] | undefined;
    if (verify && s.expect === "holds" && !(row && row[0] !== null && row[0] !== 0 && row[0] !== "" && row[0] !== "0")) throw new Error(`raw: ${s.sql} does not hold`);
  }
}

/** The raw SQL of one golden trace on a warm connection (its statements prepared), rolled back to s0 afterwards. */
function rawRun(st: (sql: string) => Database.Statement, plan: RawCall[], verify = false): void {
  st("BEGIN").run();
  for (const c of plan) {
    for (const s of c.checks) exec(st, s, verify);
    if (c.writes) {
      st("SAVEPOINT call").run();
      for (const s of c.writes) exec(st, s, verify);
      if (c.result) exec(st, c.result, verify);
      st("RELEASE call").run();
    } else if (c.result) exec(st, c.result, verify);
  }
  st("ROLLBACK").run();
}

/** The world-operation calls of a golden trace through the runtime (Episode.invoke, `reuse` isolation), nothing else. */
function runtimeRun(p: Prepared): void {
  const e = Episode.open(p.initial, p.compiled, { task: p.item.task, documents: p.item.domain.documents, isolation: "reuse", seed: p.item.golden.seed });
  for (const c of p.opCalls) e.invoke(c);
  e.close();
}

function prepare(items: readonly EvalTask[]): Prepared[] {
  return items.map((item) => {
    const initial = initialStateFor(item.domain, item.task);
    const compiled = item.domain.compiled;
    const ctx = createCheckContext(item.domain.world, item.task, initial);
    const golden: Trace = item.golden;
    const isOp = (e: TraceEvent) => isCall(e) && compiled.operations.has(e.name);
    const ops = golden.events.filter(isOp);
    // Scheduled events that fired change the state between calls: their statements are part of the raw run.
    const raw = golden.events.filter((e) => isOp(e) || e.kind === "scheduled_event").map((e) => (e.kind === "scheduled_event" ? rawEventOf(compiled, item.task.scheduled_events ?? [], e) : rawCallOf(compiled, e)));
    return {
      item,
      initial,
      compiled,
      ctx,
      opCalls: ops.map((e) => ({ name: e.name, args: e.args, actor: e.actor === "customer" ? "customer" : "agent" })),
      raw,
      events: golden.events.length,
      calls: golden.events.filter(isCall).length,
      statements: raw.reduce((n, c) => n + c.checks.length + (c.writes ? c.writes.length + 2 : 0) + (c.result ? 1 : 0), 0),
    };
  });
}

/** Interleaved rounds; per round, each function's wall and CPU (user + system of this process) time per call of it, in ms. */


function measure(prepared: Prepared[], rounds: number) {
  const n = prepared.length;
  const calls = prepared.reduce((s, p) => s + p.calls, 0);
  const opCalls = prepared.reduce((s, p) => s + p.opCalls.length, 0);
  const raws = prepared.map((p) => {
    // One long-lived connection per task's initial state, as `reuse` isolation keeps one.
    const db = new Database(p.initial.buffer);
    return { st: statementCache(db), plan: p.raw, db };
  });
  const all = {
    replayChecks: () => {
      for (const p of prepared) runChecks(p.item.task, replay(p.item.golden, p.compiled, p.initial, p.item.task, p.item.domain.documents).trace, p.ctx);
    },
    replay: () => {
      for (const p of prepared) replay(p.item.golden, p.compiled, p.initial, p.item.task, p.item.domain.documents);
    },
    checks: () => {
      for (const p of prepared) runChecks(p.item.task, p.item.golden, p.ctx);
    },
    runtime: () => {
      for (const p of prepared) runtimeRun(p);
    },
    raw: () => {
      for (const r of raws) rawRun(r.st, r.plan);
    },
  };
  const it = (full: number) => size(full, 1);
  const t = timeInterleaved(
    {
      replayChecks: { fn: all.replayChecks, iterations: it(6) },
      replay: { fn: all.replay, iterations: it(6) },
      checks: { fn: all.checks, iterations: it(10) },
      runtime: { fn: all.runtime, iterations: it(15) },
      raw: { fn: all.raw, iterations: it(30) },
    },
    rounds,
    (iterations) => Math.max(1, Math.ceil(iterations / 3)),
  );
  for (const r of raws) r.db.close();
  const perReplayCpu = median(t.cpu.replayChecks) / n;
  const perReplayWall = median(t.wall.replayChecks) / n;
  return {
    load_average: loadavg().map((x) => round(x, 2)),
    replay_checks_cpu_ms: round(perReplayCpu, 4),
    replays_per_cpu_s: Math.round(1000 / perReplayCpu),
    replay_checks_wall_ms: round(perReplayWall, 4),
    replays_per_s: Math.round(1000 / perReplayWall),
    replay_only_cpu_ms: round(median(t.cpu.replay) / n, 4),
    checks_only_cpu_ms: round(median(t.cpu.checks) / n, 4),
    per_call_replay_cpu_us: round((median(t.cpu.replayChecks) / calls) * 1000, 2),
    runtime_per_op_call_cpu_us: round((median(t.cpu.runtime) / opCalls) * 1000, 2),
    raw_per_op_call_cpu_us: round((median(t.cpu.raw) / opCalls) * 1000, 2),
    runtime_per_op_call_wall_us: round((median(t.wall.runtime) / opCalls) * 1000, 2),
    raw_per_op_call_wall_us: round((median(t.wall.raw) / opCalls) * 1000, 2),
    ratio_cpu: round(ratio(t.cpu.runtime, t.cpu.raw), 2),
    ratio_wall: round(ratio(t.wall.runtime, t.wall.raw), 2),
  };
}

function main(): void {
  const release = loadEvalRelease(join(RELEASES, "sample", VERSION));
  const items = SMOKE ? release.tasks.slice(0, 3) : release.tasks;
  const prepared = prepare(items);
  // Every golden trace replays exactly, passes every check, and its raw SQL does what the runtime did.
  let checks = 0;
  for (const p of prepared) {
    const r = replay(p.item.golden, p.compiled, p.initial, p.item.task, p.item.domain.documents);
    if (!r.ok) throw new Error(`golden trace of ${p.item.task.id} does not replay: ${JSON.stringify(r.mismatches.slice(0, 3))}`);
    const verdicts = runChecks(p.item.task, r.trace, p.ctx);
    const failing = verdicts.filter((v) => !v.passed);
    if (failing.length > 0) throw new Error(`golden trace of ${p.item.task.id} fails ${failing.map((v) => v.check).join(", ")}`);
    checks += verdicts.length;
    const db = new Database(p.initial.buffer);
    try {
      rawRun(statementCache(db), p.raw, true);
    } catch (err) {
      throw new Error(`golden trace of ${p.item.task.id}: ${(err as Error).message}`);
    } finally {
      db.close();
    }
  }
  const rounds = arg("--rounds", size(11, 1));
  const runs = Array.from({ length: arg("--runs", 1) }, () => measure(prepared, rounds));
  const best = runs.reduce((a, b) => (b.replays_per_cpu_s > a.replays_per_cpu_s ? b : a));
  const span = (pick: (r: (typeof runs)[number]) => number) => `${Math.min(...runs.map(pick))}–${Math.max(...runs.map(pick))}`;
  const count = <K extends keyof Prepared>(k: K) => prepared.reduce((s, p) => s + (p[k] as number), 0);
  const opCalls = prepared.reduce((s, p) => s + p.opCalls.length, 0);
  const kinds = new Map<string, number>();
  for (const p of prepared) for (const e of p.item.golden.events) kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
  const f = {
    command: `${getPriority() !== 0 ? `nice -n ${getPriority()} ` : ""}node --import tsx bench/release-replay.ts`,
    node: process.version,
    cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}`,
    release: `${release.name}@${release.version}`,
    tasks: prepared.length,
    domains: [...new Set(prepared.map((p) => p.item.domain.id))],
    events: count("events"),
    event_kinds: Object.fromEntries(kinds),
    calls: count("calls"),
    world_op_calls: opCalls,
    other_calls: count("calls") - opCalls,
    sql_statements: count("statements"),
    checks,
    rounds,
    runs: runs.length,
    ...best,
    range: { replays_per_cpu_s: span((r) => r.replays_per_cpu_s), ratio_cpu: span((r) => r.ratio_cpu), load_1m: span((r) => r.load_average[0] as number) },
    targets: TARGETS,
    met: { replays: best.replays_per_cpu_s >= TARGETS.replays_per_cpu_s_min, ratio: best.ratio_cpu <= TARGETS.per_call_ratio_max },
  };
  if (process.argv.includes("--json")) console.log(JSON.stringify(f, null, 2));
  else {
    const table = new Table({ head: ["measure", "value"] });
    table.push(
      ["golden traces (tasks) / events / calls", `${f.tasks} / ${f.events} / ${f.calls} (${f.world_op_calls} world operations, ${f.other_calls} other tools)`],
      ["checks per pass / raw SQL statements per pass", `${f.checks} / ${f.sql_statements}`],
      ["replay + checks, CPU per trace", `${f.replay_checks_cpu_ms} ms → ${f.replays_per_cpu_s} per CPU-second (target ≥ ${TARGETS.replays_per_cpu_s_min})`],
      ["replay + checks, wall per trace", `${f.replay_checks_wall_ms} ms → ${f.replays_per_s}/s`],
      ["replay alone / checks alone, CPU per trace", `${f.replay_only_cpu_ms} / ${f.checks_only_cpu_ms} ms`],
      ["world call, CPU: runtime / raw SQL", `${f.runtime_per_op_call_cpu_us} / ${f.raw_per_op_call_cpu_us} µs → ${f.ratio_cpu}× (target ≤ ${TARGETS.per_call_ratio_max}×)`],
      ["world call, wall: runtime / raw SQL", `${f.runtime_per_op_call_wall_us} / ${f.raw_per_op_call_wall_us} µs → ${f.ratio_wall}×`],
      ["load average (1 / 5 / 15 min) at the end", f.load_average.join(" / ")],
      [`range over ${f.runs} run(s)`, `${f.range.replays_per_cpu_s} per CPU-second; ratio ${f.range.ratio_cpu}×; 1-min load ${f.range.load_1m}`],
    );
    console.log(table.toString());
  }
  if (process.argv.includes("--write")) writeSection(f);
  reportMissed([
    ...(f.met.replays ? [] : [`${f.replays_per_cpu_s} replays + checks per CPU-second (target ≥ ${TARGETS.replays_per_cpu_s_min})`]),
    ...(f.met.ratio ? [] : [`world call ${f.ratio_cpu}× its raw SQL, CPU (target ≤ ${TARGETS.per_call_ratio_max}×)`]),
  ]);
}

type Figures = Parameters<typeof writeSectionBody>[0];

function writeSectionBody(f: {
  command: string;
  node: string;
  cpu: string;
  release: string;
  tasks: number;
  domains: string[];
  events: number;
  event_kinds: Record<string, number>;
  calls: number;
  world_op_calls: number;
  other_calls: number;
  sql_statements: number;
  checks: number;
  rounds: number;
  runs: number;
  load_average: number[];
  replay_checks_cpu_ms: number;
  replays_per_cpu_s: number;
  replay_checks_wall_ms: number;
  replays_per_s: number;
  replay_only_cpu_ms: number;
  checks_only_cpu_ms: number;
  per_call_replay_cpu_us: number;
  runtime_per_op_call_cpu_us: number;
  raw_per_op_call_cpu_us: number;
  runtime_per_op_call_wall_us: number;
  raw_per_op_call_wall_us: number;
  ratio_cpu: number;
  ratio_wall: number;
  range: { replays_per_cpu_s: string; ratio_cpu: string; load_1m: string };
  met: { replays: boolean; ratio: boolean };
}, notes: string): string {
  const verdict = (ok: boolean) => (ok ? "met" : "missed");
  return [
    START,
    "## World runtime on the release: replay and checks of the golden traces (`bench/release-replay.ts`)",
    "",
    `Command: \`${f.command} --runs ${f.runs} --write\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, one process at \`nice -n 5\`; load average ${f.load_average.join(" / ")} (1 / 5 / 15 min) at the end of the reported run (other jobs shared the 2 cores).`,
    "",
    `Input: every golden trace of ${f.release} (${f.tasks} tasks, ${f.domains.join(", ")}): ${f.events} events (${Object.entries(f.event_kinds).map(([k, v]) => `${k} ${v}`).join(", ")}), of which ${f.calls} calls: ${f.world_op_calls} world operations and ${f.other_calls} other tools (read_document). One replay = \`replay()\` of the trace from its task's initial state (the domain's s0 with the task's overlay, \`reuse\` isolation: a pooled connection rolled back to s0) with the domain's documents, every event compared with the recording, then all the task's checks (\`runChecks\`, ${f.checks} checks over the ${f.tasks} traces) on the replayed trace. Before timing, the script asserts that every trace replays exactly, passes every check, and that its raw SQL does what the runtime did (every precondition holds, every approval and consumption changes one row).`,
    "",
    `Raw = the SQL the world calls issue, with the runtime's bindings, run directly with better-sqlite3 on one warm connection per task's initial state (statements prepared once, \`BEGIN\` … \`ROLLBACK\` around each trace, a savepoint around each writing call): the operation's preconditions, effects and result statements plus the \`_proposals\` statements of its \`approves\` / \`requires_approval\` / \`proposes\` (${f.sql_statements} statements per pass, savepoints included). Runtime = the same world calls through \`Episode.invoke\` (\`reuse\` isolation; argument parsing, routing, change capture, trace recording and the chained state hash) and nothing else: messages and read_document issue no SQL, so they have no raw counterpart and are left out of the ratio (they are in the replay figure). CPU time = user + system of this process; medians of ${f.rounds} interleaved rounds after a warm-up, ratios the median of per-round ratios.`,
    "",
    "| measure | value |",
    "|---|---|",
    `| **replay + checks, CPU per golden trace** | ${f.replay_checks_cpu_ms} ms → **${f.replays_per_cpu_s} replays per CPU-second** (target ≥ 4,000: ${verdict(f.met.replays)}) |`,
    `| replay + checks, wall clock per trace | ${f.replay_checks_wall_ms} ms → ${f.replays_per_s} replays/s |`,
    `| replay alone / checks alone (on the recorded trace), CPU per trace | ${f.replay_only_cpu_ms} / ${f.checks_only_cpu_ms} ms |`,
    `| replay + checks per call (${f.calls} calls) | ${f.per_call_replay_cpu_us} µs CPU |`,
    `| **world call, CPU: runtime / raw SQL** | ${f.runtime_per_op_call_cpu_us} / ${f.raw_per_op_call_cpu_us} µs → **${f.ratio_cpu}×** (target ≤ 2×: ${verdict(f.met.ratio)}) |`,
    `| world call, wall clock: runtime / raw SQL | ${f.runtime_per_op_call_wall_us} / ${f.raw_per_op_call_wall_us} µs → ${f.ratio_wall}× |`,
    "",
    `The table is the run with the highest CPU-time throughput of ${f.runs}; ranges over all runs: ${f.range.replays_per_cpu_s} replays per CPU-second, ratio ${f.range.ratio_cpu}× CPU, 1-minute load ${f.range.load_1m}.`,
    "",
    notes,
    END,
  ].join("\n");
}

/** Hand-written notes (profiles) kept when the section is rewritten. */
function currentNotes(): string {
  const file = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));
  try {
    const m = /<!-- release-replay:notes:start -->[\s\S]*?<!-- release-replay:notes:end -->/.exec(readFileSync(file, "utf8"));
    return m ? m[0] : "<!-- release-replay:notes:start -->\n<!-- release-replay:notes:end -->";
  } catch {
    return "";
  }
}

function writeSection(f: Figures): void {
  writeBenchmarksSection(START, END, writeSectionBody(f, currentNotes()));
}

main();
