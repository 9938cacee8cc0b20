// Replay throughput of the world runtime, and its per-call cost against the same SQL run directly
// with better-sqlite3. Run: `node --import tsx bench/world-replay.ts` (add `--write` to update the
// section of BENCHMARKS.md, `--runs N` to repeat it on a busy machine). One process, one core;
// medians of interleaved timed rounds. `--smoke`: a small world, few iterations, targets not judged.
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import os from "node:os";
import Database from "better-sqlite3";
import Table from "cli-table3";
import { Task, type WorldModel } from "../pipeline/schemas/index.js";
import { loadWorld } from "../pipeline/world/load-world.js";
import { buildBaseState, type InitialState } from "../pipeline/world/build-state.js";
import { compileWorld, type CompiledWorld } from "../pipeline/world/compile-world.js";
import { Episode } from "../pipeline/world/episode.js";
import { replay } from "../pipeline/world/replay.js";
import { createCheckContext } from "../pipeline/world/check-context.js";
import { encodeTerms, termsOf } from "../pipeline/world/approvals.js";
import { runChecks } from "../validation/checks/index.js";
import type { ToolCall } from "../pipeline/world/types.js";
import { median, quantile, ratio, timeInterleaved } from "./lib/measure.js";
import { statementCache } from "./lib/statement-cache.js";

const WORLD_FILE = fileURLToPath(new URL("../tests/fixtures/world/world.yaml", import.meta.url));

/** The fixture world with generated row counts scaled up until the database is about 1 MB. */
function scaledWorld(): WorldModel {
  const base = loadWorld(WORLD_FILE, "world.yaml");
  const counts: Record<string, number> = size({ clients: 400, accounts: 2500, payments: 5500 }, { clients: 20, accounts: 50, payments: 50 });
  const world = structuredClone(base);
  for (const t of world.tables) if (t.generate && counts[t.name] !== undefined) t.generate.count = counts[t.name] as number;
  return world;
}

const TERMS = { from_account: "ACC-001", to_account: "ACC-002", amount: 5000 };
/** Ten calls: reads, a precondition rejection, a proposal, the customer's approval, an approved execution, writes. */
const CALLS: ToolCall[] = [
  { name: "get_payment", args: { payment_id: "PAY-00001" }, actor: "agent" },
  { name: "list_payments", args: { client_id: "CL-001" }, actor: "agent" },
  { name: "release_payment", args: { payment_id: "PAY-00003" }, actor: "agent" },
  { name: "propose_transfer", args: TERMS, actor: "agent" },
  { name: "approve_transfer", args: { proposal_id: "PR-0001" }, actor: "customer" },
  { name: "execute_transfer", args: TERMS, actor: "agent" },
  { name: "release_payment", args: { payment_id: "PAY-00001" }, actor: "agent" },
  { name: "add_memo", args: { payment_id: "PAY-00001", memo: "released after transfer" }, actor: "agent" },
  { name: "request_fx_quote", args: { client_id: "CL-001", pair: "EURUSD" }, actor: "agent" },
  { name: "get_payment", args: { payment_id: "PAY-00001" }, actor: "agent" },
];

const prov = { source: "rule" as const, rule: "R-APPROVAL", at: { document: "liquidity-policy", version: "2", line_start: 1, line_end: 1, clause: "LIQ-4.1" } };
const TASK = Task.parse({
  id: "bench-transfer",
  domain: "mini-treasury",
  title: "Move funds and release a payment",
  objective: "Transfer 5,000 with approval, then release PAY-00001.",
  workflows: ["transfer"],
  as_of: "2026-03-02",
  customer_id: "CL-001",
  scenario: { persona: "Finance manager.", opening_request: "Please move 5,000 and release PAY-00001." },
  checks: {
    goal: [
      { id: "g1", group: "goal", kind: "final_row_state", params: { table: "payments", key: "PAY-00001", require: [{ column: "status", op: "=", value: "released" }] }, description: "Released.", provenance: prov },
      { id: "g2", group: "goal", kind: "action_executed", params: { operation: "execute_transfer" }, description: "Transferred.", provenance: prov },
    ],
    process: [
      { id: "p1", group: "process", kind: "approval_before_execution", params: { operation: "execute_transfer" }, description: "Approved first.", provenance: prov },
      { id: "p2", group: "process", kind: "invariant_holds", params: { rule: "R-RESERVE-FLOOR" }, description: "Floor kept.", provenance: prov },
    ],
    protection: [{ id: "x1", group: "protection", kind: "other_customers_untouched", params: {}, description: "Others untouched.", provenance: prov }],
  },
  reference_plan: [{ step: 1, actor: "agent", operation: "execute_transfer", args: TERMS, workflow: "transfer", sop_step: null, why: "LIQ-4.1" }],
  documents: { relevant: ["liquidity-policy"], distractors: [] },
});

/** A statement with positional parameters, run with `get` (reads) or `run` (writes). */
interface Stmt {
  sql: string;
  params: unknown[];
  mode: "get" | "run";
}

/**
 * The SQL of each call, with its bindings: the world's own statements (preconditions, effects,
 * result) and, unless `worldOnly`, the proposal bookkeeping the operation declares (`proposes`,
 * `approves`, `requires_approval`), written as the runtime issues it against `_proposals`.
 */
interface RawCall {
  checks: string[];
  effects: string[];
  inside: Stmt[];
  result: { sql: string; many: boolean } | null;
  bind: Record<string, unknown>;
}

function rawPlan(compiled: CompiledWorld, worldOnly: boolean): RawCall[] {
  return CALLS.map((call, i) => {
    const cop = compiled.operations.get(call.name);
    if (!cop) throw new Error(`no operation ${call.name}`);
    const { op } = cop;
    const bind: Record<string, unknown> = { ...Object.fromEntries(cop.paramNames.map((k) => [k, null])), ...call.args, now: 0n, actor: call.actor, call: BigInt(i + 1) };
    const inside: Stmt[] = [];
    if (!worldOnly) {
      // The statements ProposalStore (approvals.ts) issues, with the same values.
      if (op.approves !== undefined) {
        inside.push({
          sql: "UPDATE _proposals SET status = 'approved', approved_at = ?, approved_by = ? WHERE proposal_id = ? AND kind = ? AND status = 'pending'",
          params: [0, call.actor, call.args.proposal_id, op.approves],
          mode: "run",
        });
      }
      if (op.requires_approval) {
        const { hash } = encodeTerms(termsOf(op.requires_approval.terms, call.args));
        inside.push({
          sql: "SELECT proposal_id FROM _proposals WHERE kind = ? AND terms_hash = ? AND status = 'approved' ORDER BY created_at, proposal_id LIMIT 1",
          params: [op.requires_approval.kind, hash],
          mode: "get",
        });
        inside.push({ sql: "UPDATE _proposals SET status = 'consumed', consumed_at = ? WHERE proposal_id = ?", params: [0, "PR-0001"], mode: "run" });
      }
      if (op.proposes) {
        const { json, hash } = encodeTerms(termsOf(op.proposes.terms, call.args));
        inside.push({
          sql: "INSERT INTO _proposals (proposal_id, kind, operation, terms_json, terms_hash, status, created_at, actor) VALUES ('PR-' || printf('%04d', (SELECT count(*) FROM _proposals) + 1), ?, ?, ?, ?, 'pending', ?, ?) RETURNING proposal_id",
          params: [op.proposes.kind, op.name, json, hash, 0, call.actor],
          mode: "get",
        });
      }
    }
    return { checks: op.preconditions.map((p) => p.sql), effects: op.effects.map((e) => e.sql), inside, result: op.result, bind };
  });
}

/** The same SQL straight on better-sqlite3, no runtime around it: checks, then writes in a savepoint, then the result. */
function rawCalls(db: Database.Database, st: (sql: string) => Database.Statement, plan: RawCall[]): void {
  for (const c of plan) {
    let ok = true;
    for (const sql of c.checks) {
      const row = st(sql).raw(true).get(c.bind) as unknown[] | undefined;
      if (!row || !row[0]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (c.effects.length > 0 || c.inside.length > 0) {
      st("SAVEPOINT call").run();
      for (const sql of c.effects) st(sql).run(c.bind);
      for (const b of c.inside) {
        if (b.mode === "get") st(b.sql).get(...b.params);
        else st(b.sql).run(...b.params);
      }
      st("RELEASE call").run();
    }
    if (c.result) {
      const s = st(c.result.sql);
      if (c.result.many) s.all(c.bind);
      else s.get(c.bind);
    }
  }
}


/** Cold raw episode: a fresh copy, every statement prepared on it, then closed. */
function rawCold(buffer: Buffer, plan: RawCall[]): void {
  const db = new Database(buffer);
  const st = statementCache(db);
  st("BEGIN").run();
  rawCalls(db, st, plan);
  db.close();
}

/** Warm raw episode: one long-lived connection with its statements, rolled back after each run. */
function rawWarm(buffer: Buffer, plan: RawCall[]): () => void {
  const db = new Database(buffer);
  const st = statementCache(db);
  return () => {
    st("BEGIN").run();
    rawCalls(db, st, plan);
    st("ROLLBACK").run();
  };
}

function measure() {
  const world = scaledWorld();
  const compiled = compileWorld(world);
  const state = buildBaseState(world, { seed: 1 });

  const golden = Episode.open(state, compiled, { task: TASK, role: "golden" });
  for (const c of CALLS) golden.invoke(c);
  const trace = golden.finish();
  golden.close();
  const statuses = trace.events.map((e) => e.status);
  const ctx = createCheckContext(world, TASK, state);
  const verdicts = runChecks(TASK, trace, ctx);
  const failing = verdicts.filter((v) => !v.passed);
  if (failing.length > 0) throw new Error(`bench trace fails its checks: ${failing.map((v) => `${v.check}: ${v.reason}`).join("; ")}`);
  const check = replay(trace, compiled, state, TASK);
  if (!check.ok) throw new Error(`bench trace does not replay: ${JSON.stringify(check.mismatches)}`);

  const plan = rawPlan(compiled, false);
  const worldOnlyPlan = rawPlan(compiled, true);
  const episode = (isolation: "copy" | "reuse") => () => {
    const e = Episode.open(state, compiled, { task: TASK, isolation });
    for (const c of CALLS) e.invoke(c);
    e.close();
  };
  const timed = timeInterleaved({
    open: { fn: () => new Database(state.buffer).close(), iterations: size(400, 3) },
    replayChecks: {
      fn: () => {
        const r = replay(trace, compiled, state, TASK);
        runChecks(TASK, r.trace, ctx);
      },
      iterations: size(200, 3),
    },
    replay: { fn: () => replay(trace, compiled, state, TASK), iterations: size(200, 3) },
    replayCopy: {
      fn: () => {
        const r = replay(trace, compiled, state, TASK, [], { isolation: "copy" });
        runChecks(TASK, r.trace, ctx);
      },
      iterations: size(50, 3),
    },
    warm: { fn: episode("reuse"), iterations: size(200, 3) },
    rawWarm: { fn: rawWarm(state.buffer, plan), iterations: size(200, 3) },
    rawWarmWorldOnly: { fn: rawWarm(state.buffer, worldOnlyPlan), iterations: size(200, 3) },
    cold: { fn: episode("copy"), iterations: size(50, 3) },
    rawCold: { fn: () => rawCold(state.buffer, plan), iterations: size(50, 3) },
  }, size(11, 1), (iterations) => (SMOKE ? 1 : Math.max(size(20, 1), iterations / 5)));
  const t = timed.wall;
  const cpu = timed.cpu;
  // The two phases of a replay with checks, timed separately in one loop.
  const phaseReplay: number[] = [];
  const phaseChecks: number[] = [];
  const phaseTotal: number[] = [];
  const warmUp = size(500, 2);
  for (let i = 0; i < size(3000, 10); i++) {
    const t0 = performance.now();
    const r = replay(trace, compiled, state, TASK);
    const t1 = performance.now();
    runChecks(TASK, r.trace, ctx);
    const t2 = performance.now();
    if (i >= warmUp) {
      phaseReplay.push(t1 - t0);
      phaseChecks.push(t2 - t1);
      phaseTotal.push(t2 - t0);
    }
  }
  const openMs = median(t.open);
  const replayMs = median(t.replayChecks);
  const replayOnlyMs = median(t.replay);
  const replayCopyMs = median(t.replayCopy);
  const warmMs = median(t.warm);
  const rawWarmMs = median(t.rawWarm);
  const coldMs = median(t.cold);
  const rawColdMs = median(t.rawCold);
  const coldLessOpen = t.cold.map((x) => x - openMs);
  const rawColdLessOpen = t.rawCold.map((x) => x - openMs);
  const n = CALLS.length;

  const figures = {
    command: `${os.getPriority() !== 0 ? `nice -n ${os.getPriority()} ` : ""}node --import tsx bench/world-replay.ts`,
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? "unknown"} × ${os.cpus().length}`,
    load_average_1m: round(os.loadavg()[0] ?? 0, 2),
    niceness: os.getPriority(),
    database_bytes: state.buffer.length,
    rows: Object.fromEntries(world.tables.map((t) => [t.name, t.rows.length + (t.generate?.count ?? 0)])),
    trace_calls: n,
    trace_statuses: statuses,
    checks_per_replay: verdicts.length,
    open_copy_ms: round(openMs, 4),
    replay_with_checks_ms: round(replayMs, 4),
    replays_per_s: Math.round(1000 / replayMs),
    replay_with_checks_cpu_ms: round(median(cpu.replayChecks), 4),
    replays_per_cpu_s: Math.round(1000 / median(cpu.replayChecks)),
    replay_without_checks_ms: round(replayOnlyMs, 4),
    phase_replay_median_ms: round(median(phaseReplay), 4),
    phase_checks_median_ms: round(median(phaseChecks), 4),
    single_replay_with_checks_p10_ms: round(quantile(phaseTotal, 0.1), 4),
    single_replay_with_checks_median_ms: round(median(phaseTotal), 4),
    replays_per_s_at_median: Math.round(1000 / median(phaseTotal)),
    replay_copy_isolation_with_checks_ms: round(replayCopyMs, 4),
    replays_per_s_copy_isolation: Math.round(1000 / replayCopyMs),
    warm_runtime_per_call_us: round((warmMs / n) * 1000, 2),
    warm_raw_per_call_us: round((rawWarmMs / n) * 1000, 2),
    warm_ratio: round(ratio(t.warm, t.rawWarm), 2),
    warm_ratio_cpu: round(ratio(cpu.warm, cpu.rawWarm), 2),
    warm_ratio_vs_world_sql_only_cpu: round(ratio(cpu.warm, cpu.rawWarmWorldOnly), 2),
    warm_raw_world_sql_only_per_call_us: round((median(t.rawWarmWorldOnly) / n) * 1000, 2),
    warm_ratio_vs_world_sql_only: round(ratio(t.warm, t.rawWarmWorldOnly), 2),
    cold_runtime_per_call_us: round(((coldMs - openMs) / n) * 1000, 2),
    cold_raw_per_call_us: round(((rawColdMs - openMs) / n) * 1000, 2),
    cold_ratio: round(ratio(coldLessOpen, rawColdLessOpen), 2),
    targets: { replays_per_s: 2000, per_call_ratio: 3 },
  };
  return figures;
}

/** Value of `--name N` on the command line, or `fallback`. */
function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1) throw new Error(`Expected \`--${name}\` to be a whole number from 1 up, got \`${process.argv[i + 1]}\``);
  return v;
}

function main(): void {
  const write = process.argv.includes("--write");
  // On a shared machine one run can be slowed by other jobs: `--runs N` repeats the measurement,
  // reports the least disturbed run (highest replay throughput) and the range over all runs.
  const runs = Array.from({ length: option("runs", 1) }, () => measure());
  const figures = { ...runs.reduce((best, r) => (r.replays_per_cpu_s > best.replays_per_cpu_s ? r : best)), runs: runs.length, range: rangeOf(runs) };
  const n = figures.trace_calls;

  const f = figures;
  const table = new Table({ head: ["measure", "value"] });
  table.push(
    ["database size", `${Math.round(f.database_bytes / 1024)} KiB`],
    ["open a copy (new Database(buffer))", `${f.open_copy_ms} ms`],
    [`replay ${n}-call trace + ${f.checks_per_replay} checks, CPU time`, `${f.replay_with_checks_cpu_ms} ms → ${f.replays_per_cpu_s} per CPU-second (target ≥ 2000 on one core)`],
    [`replay ${n}-call trace + ${f.checks_per_replay} checks, wall clock`, `${f.replay_with_checks_ms} ms → ${f.replays_per_s}/s`],
    ["replay without checks", `${f.replay_without_checks_ms} ms`],
    ["single replays: median replay / checks", `${f.phase_replay_median_ms} / ${f.phase_checks_median_ms} ms`],
    ["single replay + checks: p10 / median", `${f.single_replay_with_checks_p10_ms} / ${f.single_replay_with_checks_median_ms} ms → ${f.replays_per_s_at_median}/s at the median`],
    ["replay + checks, copy isolation", `${f.replay_copy_isolation_with_checks_ms} ms → ${f.replays_per_s_copy_isolation}/s`],
    ["warm per call: runtime / raw", `${f.warm_runtime_per_call_us} / ${f.warm_raw_per_call_us} µs`],
    ["warm ratio runtime : raw (target ≤ 3)", `${f.warm_ratio}× wall, ${f.warm_ratio_cpu}× CPU`],
    ["warm raw, world SQL only (no proposal bookkeeping)", `${f.warm_raw_world_sql_only_per_call_us} µs/call → ratio ${f.warm_ratio_vs_world_sql_only}× wall, ${f.warm_ratio_vs_world_sql_only_cpu}× CPU`],
    ["cold per call: runtime / raw", `${f.cold_runtime_per_call_us} / ${f.cold_raw_per_call_us} µs`],
    ["cold ratio runtime : raw", `${f.cold_ratio}×`],
    ["load average (1 min) during the run", String(f.load_average_1m)],
    [`range over ${f.runs} run(s)`, `${f.range.replays_per_cpu_s} per CPU-s; ${f.range.replays_per_s}/s wall; warm ratio ${f.range.warm_ratio}× wall, ${f.range.warm_ratio_cpu}× CPU; world-SQL-only ${f.range.warm_ratio_vs_world_sql_only}×`],
  );
  console.log(table.toString());
  console.log(JSON.stringify(figures, null, 2));
  if (write) writeSection(figures);
  reportMissed([
    ...(f.replays_per_cpu_s >= f.targets.replays_per_s ? [] : [`${f.replays_per_cpu_s} replays per CPU-second (target ≥ ${f.targets.replays_per_s})`]),
    ...(f.warm_ratio_cpu <= f.targets.per_call_ratio ? [] : [`warm ratio runtime : raw ${f.warm_ratio_cpu}× CPU (target ≤ ${f.targets.per_call_ratio})`]),
  ]);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const START = "<!-- world-replay:start -->";
const END = "<!-- world-replay:end -->";

type Measured = ReturnType<typeof measure>;
type Figures = Measured & { runs: number; range: ReturnType<typeof rangeOf> };

/** `min–max` of the headline figures over several runs. */
function rangeOf(runs: Measured[]) {
  const span = (pick: (r: Measured) => number) => {
    const xs = runs.map(pick);
    return `${Math.min(...xs)}–${Math.max(...xs)}`;
  };
  return {
    replays_per_cpu_s: span((r) => r.replays_per_cpu_s),
    replays_per_s: span((r) => r.replays_per_s),
    warm_ratio: span((r) => r.warm_ratio),
    warm_ratio_cpu: span((r) => r.warm_ratio_cpu),
    warm_ratio_vs_world_sql_only: span((r) => r.warm_ratio_vs_world_sql_only),
  };
}

/** Replace (or append) this benchmark's section of BENCHMARKS.md, leaving other sections alone. */
function writeSection(f: Figures): void {
  const body = [
    START,
    "## World runtime: replay throughput and per-call overhead",
    "",
    `Command: \`${f.command} --runs ${f.runs} --write\` (\`--write\` rewrites this section). Node ${f.node}, ${f.cpu}, one process at niceness ${f.niceness}; other jobs shared the 2 cores (1-minute load average ${f.load_average_1m} at the end of the reported run).`,
    "",
    `World: the test fixture (tests/fixtures/world) with generated rows scaled up to ${Math.round(f.database_bytes / 1024)} KiB (${Object.entries(f.rows).map(([t, c]) => `${t} ${c}`).join(", ")}).`,
    `Trace: ${f.trace_calls} calls (reads, a rejected precondition, a proposal, the customer's approval, an approved transfer, writes).`,
    `One replay = open an episode on s0, re-run the calls through Episode.invoke, compare every event with the recording, then run the task's ${f.checks_per_replay} real checks (validation/checks: final_row_state, action_executed, approval_before_execution, invariant_holds, other_customers_untouched) on the replayed trace.`,
    "Raw = the SQL each call issues, run directly with better-sqlite3 with the same bindings: the world's own precondition, effect and result statements plus the `_proposals` statements its `proposes` / `approves` / `requires_approval` declare, writes in a savepoint. The difference is the runtime proper: argument validation, routing, change capture, trace recording and hashing. A second raw figure leaves the proposal statements out.",
    "",
    "Because the machine is shared, throughput is given per CPU-second of this process (user + system time: what \"on one core\" means; less disturbed by other jobs than the wall clock, though a job on the other hardware thread still slows it, hence the range below) and by the wall clock.",
    "",
    "| measure | value |",
    "|---|---|",
    `| open a copy of s0 (\`new Database(buffer)\`) | ${f.open_copy_ms} ms |`,
    `| **replay + checks, CPU time** (default \`reuse\` isolation) | ${f.replay_with_checks_cpu_ms} ms → **${f.replays_per_cpu_s} replays per CPU-second** (target ≥ 2,000 on one core) |`,
    `| replay + checks, wall clock | ${f.replay_with_checks_ms} ms → ${f.replays_per_s} replays/s |`,
    `| replay without checks, wall clock | ${f.replay_without_checks_ms} ms |`,
    `| single replays, wall-clock median: replay / checks | ${f.phase_replay_median_ms} / ${f.phase_checks_median_ms} ms |`,
    `| single replay + checks, wall clock: p10 / median | ${f.single_replay_with_checks_p10_ms} / ${f.single_replay_with_checks_median_ms} ms |`,
    `| replay + checks, \`copy\` isolation (fresh copy per replay), wall clock | ${f.replay_copy_isolation_with_checks_ms} ms → ${f.replays_per_s_copy_isolation} replays/s |`,
    `| warm per call, wall clock: runtime / raw | ${f.warm_runtime_per_call_us} / ${f.warm_raw_per_call_us} µs |`,
    `| **warm ratio runtime : raw** | **${f.warm_ratio_cpu}× CPU**, ${f.warm_ratio}× wall (target ≤ 3) |`,
    `| raw without the proposal bookkeeping (world SQL only) | ${f.warm_raw_world_sql_only_per_call_us} µs/call → ratio ${f.warm_ratio_vs_world_sql_only_cpu}× CPU, ${f.warm_ratio_vs_world_sql_only}× wall |`,
    `| cold per call (fresh copy, statements prepared): runtime / raw | ${f.cold_runtime_per_call_us} / ${f.cold_raw_per_call_us} µs → ${f.cold_ratio}× |`,
    "",
    `The table is the run with the highest CPU-time throughput of ${f.runs}; ranges over all runs: ${f.range.replays_per_cpu_s} replays per CPU-second, ${f.range.replays_per_s} replays/s wall clock, warm ratio ${f.range.warm_ratio_cpu}× CPU / ${f.range.warm_ratio}× wall, world-SQL-only ratio ${f.range.warm_ratio_vs_world_sql_only}× wall.`,
    "Warm = a long-lived connection with its prepared statements, rolled back to s0 after each run (what `reuse` isolation does); cold = a fresh copy whose schema, capture triggers and statements SQLite parses anew (per-call cost = (episode − open) / calls). Medians of 11 interleaved rounds after a warm-up (ratios: median of per-round ratios).",
    "Where the runtime's time goes (CPU profile of warm replays): about half is SQLite running the world's statements and the `_proposals` bookkeeping; change capture costs ~5 µs per changed row (triggers calling into JS with the row's old and new values); the rest is argument parsing, trace recording, the chained state hash and the event-by-event comparison.",
    END,
  ].join("\n");
  writeBenchmarksSection(START, END, body);
}

main();
