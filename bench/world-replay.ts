// Replay throughput of the world runtime, and its per-call cost against the same SQL run directly
// with better-sqlite3. Run: `node --import tsx bench/world-replay.ts` (add `--write` to update the
// section of BENCHMARKS.md). One process, one core; medians of several timed rounds.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
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
import { runChecks } from "../validation/checks/index.js";
import type { ToolCall } from "../pipeline/world/types.js";

const WORLD_FILE = fileURLToPath(new URL("../tests/fixtures/world/world.yaml", import.meta.url));
const BENCH_FILE = fileURLToPath(new URL("../BENCHMARKS.md", import.meta.url));

/** The fixture world with generated row counts scaled up until the database is about 1 MB. */
function scaledWorld(): WorldModel {
  const base = loadWorld(WORLD_FILE, "world.yaml");
  const counts: Record<string, number> = { clients: 400, accounts: 2500, payments: 5500 };
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * Time several functions in interleaved rounds (each round runs each function `iterations` times),
 * so a burst of load from other processes hits all of them alike. Returns each function's per-round
 * mean times in ms.
 */
function timeInterleaved<K extends string>(fns: Record<K, { fn: () => void; iterations: number }>, rounds = 11): Record<K, number[]> {
  const keys = Object.keys(fns) as K[];
  for (const k of keys) for (let i = 0; i < Math.max(20, fns[k].iterations / 5); i++) fns[k].fn();
  const out = Object.fromEntries(keys.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    for (const k of keys) {
      const { fn, iterations } = fns[k];
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) fn();
      out[k].push((performance.now() - t0) / iterations);
    }
  }
  return out;
}

/** Median of per-round ratios a[r] / b[r]. */
function ratio(a: number[], b: number[]): number {
  return median(a.map((x, i) => x / (b[i] as number)));
}

/** The world's own statements of each call (preconditions, effects, result) with their bindings. */
interface RawCall {
  checks: string[];
  effects: string[];
  result: { sql: string; many: boolean } | null;
  bind: Record<string, unknown>;
}

function rawPlan(compiled: CompiledWorld): RawCall[] {
  return CALLS.map((call, i) => {
    const cop = compiled.operations.get(call.name);
    if (!cop) throw new Error(`no operation ${call.name}`);
    const bind: Record<string, unknown> = { ...cop.nullBinding, ...call.args, now: 0n, actor: call.actor, call: BigInt(i + 1) };
    // A precondition that fails stops the call here too, so the raw run does the same statements.
    const checks = cop.op.preconditions.map((p) => p.sql);
    return { checks, effects: cop.op.effects.map((e) => e.sql), result: cop.op.result, bind };
  });
}

/** The same SQL straight on better-sqlite3, no runtime around it: checks, then effects in a transaction, then the result. */
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
    if (c.effects.length > 0) {
      st("SAVEPOINT call").run();
      for (const sql of c.effects) st(sql).run(c.bind);
      st("RELEASE call").run();
    }
    if (c.result) {
      const s = st(c.result.sql);
      if (c.result.many) s.all(c.bind);
      else s.get(c.bind);
    }
  }
}

function statementCache(db: Database.Database): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let s = cache.get(sql);
    if (!s) cache.set(sql, (s = db.prepare(sql)));
    return s;
  };
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

  const plan = rawPlan(compiled);
  const episode = (isolation: "copy" | "reuse") => () => {
    const e = Episode.open(state, compiled, { task: TASK, isolation });
    for (const c of CALLS) e.invoke(c);
    e.close();
  };
  const t = timeInterleaved({
    open: { fn: () => new Database(state.buffer).close(), iterations: 400 },
    replayChecks: {
      fn: () => {
        const r = replay(trace, compiled, state, TASK);
        runChecks(TASK, r.trace, ctx);
      },
      iterations: 200,
    },
    replay: { fn: () => replay(trace, compiled, state, TASK), iterations: 200 },
    replayCopy: {
      fn: () => {
        const r = replay(trace, compiled, state, TASK, [], { isolation: "copy" });
        runChecks(TASK, r.trace, ctx);
      },
      iterations: 50,
    },
    warm: { fn: episode("reuse"), iterations: 200 },
    rawWarm: { fn: rawWarm(state.buffer, plan), iterations: 200 },
    cold: { fn: episode("copy"), iterations: 50 },
    rawCold: { fn: () => rawCold(state.buffer, plan), iterations: 50 },
  });
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
    command: "node --import tsx bench/world-replay.ts",
    node: process.version,
    cpu: `${os.cpus()[0]?.model ?? "unknown"} × ${os.cpus().length}`,
    load_average_1m: round(os.loadavg()[0] ?? 0, 2),
    database_bytes: state.buffer.length,
    rows: Object.fromEntries(world.tables.map((t) => [t.name, t.rows.length + (t.generate?.count ?? 0)])),
    trace_calls: n,
    trace_statuses: statuses,
    checks_per_replay: verdicts.length,
    open_copy_ms: round(openMs, 4),
    replay_with_checks_ms: round(replayMs, 4),
    replays_per_s: Math.round(1000 / replayMs),
    replay_without_checks_ms: round(replayOnlyMs, 4),
    replay_copy_isolation_with_checks_ms: round(replayCopyMs, 4),
    replays_per_s_copy_isolation: Math.round(1000 / replayCopyMs),
    warm_runtime_per_call_us: round((warmMs / n) * 1000, 2),
    warm_raw_per_call_us: round((rawWarmMs / n) * 1000, 2),
    warm_ratio: round(ratio(t.warm, t.rawWarm), 2),
    cold_runtime_per_call_us: round(((coldMs - openMs) / n) * 1000, 2),
    cold_raw_per_call_us: round(((rawColdMs - openMs) / n) * 1000, 2),
    cold_ratio: round(ratio(coldLessOpen, rawColdLessOpen), 2),
    targets: { replays_per_s: 2000, per_call_ratio: 3 },
  };
  return figures;
}

function main(): void {
  const write = process.argv.includes("--write");
  const figures = measure();
  const n = figures.trace_calls;

  const f = figures;
  const table = new Table({ head: ["measure", "value"] });
  table.push(
    ["database size", `${Math.round(f.database_bytes / 1024)} KiB`],
    ["open a copy (new Database(buffer))", `${f.open_copy_ms} ms`],
    [`replay ${n}-call trace + ${f.checks_per_replay} checks`, `${f.replay_with_checks_ms} ms → ${f.replays_per_s}/s (target ≥ 2000)`],
    ["replay without checks", `${f.replay_without_checks_ms} ms`],
    ["replay + checks, copy isolation", `${f.replay_copy_isolation_with_checks_ms} ms → ${f.replays_per_s_copy_isolation}/s`],
    ["warm per call: runtime / raw", `${f.warm_runtime_per_call_us} / ${f.warm_raw_per_call_us} µs`],
    ["warm ratio runtime : raw (target ≤ 3)", `${f.warm_ratio}×`],
    ["cold per call: runtime / raw", `${f.cold_runtime_per_call_us} / ${f.cold_raw_per_call_us} µs`],
    ["cold ratio runtime : raw", `${f.cold_ratio}×`],
    ["load average (1 min) during the run", String(f.load_average_1m)],
  );
  console.log(table.toString());
  console.log(JSON.stringify(figures, null, 2));
  if (write) writeSection(figures);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

const START = "<!-- world-replay:start -->";
const END = "<!-- world-replay:end -->";

type Figures = ReturnType<typeof measure>;

/** Replace (or append) this benchmark's section of BENCHMARKS.md, leaving other sections alone. */
function writeSection(f: Figures): void {
  const body = [
    START,
    "## World runtime: replay throughput and per-call overhead",
    "",
    `Command: \`${f.command}\` (\`--write\` rewrites this section). Node ${f.node}, ${f.cpu}, one process; load average ${f.load_average_1m} during the run (other work shared the 2 cores).`,
    "",
    `World: the test fixture (tests/fixtures/world) with generated rows scaled up to ${Math.round(f.database_bytes / 1024)} KiB (${Object.entries(f.rows).map(([t, c]) => `${t} ${c}`).join(", ")}).`,
    `Trace: ${f.trace_calls} calls (reads, a rejected precondition, a proposal, the customer's approval, an approved transfer, writes).`,
    `One replay = open an episode on s0, re-run the calls through Episode.invoke, compare every event with the recording, then run the task's ${f.checks_per_replay} real checks (validation/checks: final_row_state, action_executed, approval_before_execution, invariant_holds, other_customers_untouched) on the replayed trace.`,
    "Raw = the world's own precondition, effect and result statements for the same calls with the same bindings, run directly with better-sqlite3 (effects in a savepoint), nothing else.",
    "",
    "| measure | value |",
    "|---|---|",
    `| open a copy of s0 (\`new Database(buffer)\`) | ${f.open_copy_ms} ms |`,
    `| replay + checks (default \`reuse\` isolation) | ${f.replay_with_checks_ms} ms → **${f.replays_per_s} replays/s** (target ≥ 2,000) |`,
    `| replay without checks | ${f.replay_without_checks_ms} ms |`,
    `| replay + checks, \`copy\` isolation (fresh copy per replay) | ${f.replay_copy_isolation_with_checks_ms} ms → ${f.replays_per_s_copy_isolation} replays/s |`,
    `| warm per call: runtime / raw | ${f.warm_runtime_per_call_us} / ${f.warm_raw_per_call_us} µs |`,
    `| **warm ratio runtime : raw** | **${f.warm_ratio}×** (target ≤ 3) |`,
    `| cold per call (fresh copy, statements prepared): runtime / raw | ${f.cold_runtime_per_call_us} / ${f.cold_raw_per_call_us} µs → ${f.cold_ratio}× |`,
    "",
    "Warm = a long-lived connection with its prepared statements, rolled back to s0 after each run (what \`reuse\` isolation does); cold = a fresh copy whose schema and statements SQLite parses anew (per-call cost = (episode − open) / calls). Medians of 11 interleaved rounds after a warm-up (ratios: median of per-round ratios).",
    END,
  ].join("\n");
  const current = existsSync(BENCH_FILE) ? readFileSync(BENCH_FILE, "utf8") : "# Benchmarks\n";
  const s = current.indexOf(START);
  const e = current.indexOf(END);
  const next = s >= 0 && e > s ? `${current.slice(0, s)}${body}${current.slice(e + END.length)}` : `${current.trimEnd()}\n\n${body}\n`;
  writeFileSync(BENCH_FILE, next);
  console.log(`updated ${BENCH_FILE}`);
}

main();
