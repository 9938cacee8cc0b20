// The evaluator with a simulated-latency model: `synth evaluate <sample release> --agent openai:golden
// --concurrency N` (child processes of the real CLI) against the golden model server
// (bench/golden-model-server.ts: an OpenAI-compatible server over real HTTP on 127.0.0.1 answering
// every call with the golden trace's next call after 100 ms), at concurrency 1, 8 and 32. Ideal =
// model calls × 100 ms ÷ concurrency. `--concurrency N` sets the episodes in flight; the model calls
// in flight per provider are the configuration's `concurrency` (default 4, FOUNDRY_CONCURRENCY), so
// 8 and 32 run with the provider limit raised to N (judged: within 10 % of ideal), and 32 once more
// as configured by default (shown, to say what `--concurrency` alone gives). Run:
// `nice -n 5 node --import tsx bench/evaluator-latency.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures, `--from-json FILE` rewrites the section from a saved
// `--json` output instead of measuring again; `--smoke`: one task at E0 and E1, a 5 ms model,
// concurrency 2, targets not judged).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, getPriority, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Table from "cli-table3";
import { loadEvalRelease } from "../pipeline/evaluate/load-release.js";
import { latestVersion } from "../pipeline/build/sample-release.js";
import { GoldenModelServer } from "./golden-model-server.js";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";

const START = "<!-- evaluator-latency:start -->";
const END = "<!-- evaluator-latency:end -->";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RELEASES = join(ROOT, "generated", "releases");
const VERSION = latestVersion(RELEASES, "sample") as string;
const LATENCY_MS = size(100, 5);
const WITHIN = 0.1;
const round2 = (x: number) => Math.round(x * 100) / 100;

interface Scenario {
  concurrency: number;
  /** FOUNDRY_CONCURRENCY for the child (model calls in flight per provider); null: the configuration's default. */
  providerLimit: number | null;
  /** What is evaluated: `synth evaluate` selection flags. */
  selection: string[];
  label: string;
  judged: boolean;
}

const release = loadEvalRelease(join(RELEASES, "sample", VERSION));
const firstTask = release.tasks[0]!.task.id;
const ALL_E0_E3 = ["--conditions", "E0,E1,E2,E3"];
const SCENARIOS: Scenario[] = SMOKE
  ? [
      { concurrency: 2, providerLimit: 2, selection: ["--tasks", firstTask, "--conditions", "E0,E1"], label: `${firstTask}, E0–E1`, judged: false },
    ]
  : [
      // Concurrency 1 on one domain at E0: the whole release would take minutes at 100 ms a call, one at a time.
      { concurrency: 1, providerLimit: 1, selection: ["--domains", "customs-clearance", "--conditions", "E0"], label: "customs-clearance, E0", judged: false },
      { concurrency: 8, providerLimit: 8, selection: ALL_E0_E3, label: "all tasks, E0–E3", judged: true },
      { concurrency: 32, providerLimit: 32, selection: ALL_E0_E3, label: "all tasks, E0–E3", judged: true },
      { concurrency: 32, providerLimit: null, selection: ["--conditions", "E0"], label: "all tasks, E0", judged: false },
    ];

function synth(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("FOUNDRY_")));
  const child = spawn(process.execPath, [join(ROOT, "bin", "synth.js"), ...args], { cwd: ROOT, env: { ...base, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.on("exit", (c) => resolve({ code: c ?? -1, stderr })));
}

async function measure() {
  const dir = mkdtempSync(join(tmpdir(), "foundry-bench-evallat-"));
  const server = await GoldenModelServer.start(
    release.tasks.map((t) => ({ opening: t.task.scenario.opening_request, golden: t.golden })),
    LATENCY_MS,
  );
  try {
    const rows = [];
    for (const [i, s] of SCENARIOS.entries()) {
      server.resetStats();
      const env: NodeJS.ProcessEnv = { FOUNDRY_BASE_URL: server.baseUrl, OPENAI_API_KEY: "bench", FOUNDRY_CACHE_DIR: join(dir, `cache-${i}`), FOUNDRY_CONFIG: "", ...(s.providerLimit !== null ? { FOUNDRY_CONCURRENCY: String(s.providerLimit) } : {}) };
      const t0 = performance.now();
      const r = await synth(["evaluate", `sample@${VERSION}`, "--agent", "openai:golden", ...s.selection, "--concurrency", String(s.concurrency), "--out", join(dir, `out-${i}`), "--fresh", "--releases", RELEASES, "--json"], env);
      const processMs = performance.now() - t0;
      if (r.code !== 0) throw new Error(`synth evaluate (concurrency ${s.concurrency}) exited ${r.code}: ${r.stderr.slice(-2000)}`);
      const calls = server.calls;
      const windowMs = (server.lastAnswerAt ?? 0) - (server.firstRequestAt ?? 0);
      const idealMs = (calls * LATENCY_MS) / s.concurrency;
      rows.push({
        concurrency: s.concurrency,
        provider_limit: s.providerLimit,
        selection: s.label,
        judged: s.judged,
        model_calls: calls,
        max_in_flight: server.maxInFlight,
        window_ms: Math.round(windowMs),
        process_ms: Math.round(processMs),
        ideal_ms: Math.round(idealMs),
        ratio: round2(windowMs / idealMs),
        process_ratio: round2(processMs / idealMs),
        load_1m: round2(loadavg()[0] ?? 0),
      });
    }
    return {
      command: `${getPriority() !== 0 ? `nice -n ${getPriority()} ` : ""}node --import tsx bench/evaluator-latency.ts`,
      node: process.version,
      cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}`,
      release: `${release.name}@${release.version}`,
      latency_ms: LATENCY_MS,
      load_average: loadavg().map(round2),
      rows,
    };
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = Awaited<ReturnType<typeof measure>>;

function writeSection(f: Figures, notes: string): void {
  const limit = (r: Figures["rows"][number]) => (r.provider_limit === null ? "default (4)" : String(r.provider_limit));
  const body = [
    START,
    "## Evaluator: simulated-latency model over HTTP (`bench/evaluator-latency.ts`)",
    "",
    `Command: \`${f.command} --write\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, the script and its children at \`nice -n 5\`; load average ${f.load_average.join(" / ")} (1 / 5 / 15 min) at the end of the run (other jobs shared the 2 cores).`,
    "",
    `Each row one child process of the real CLI: \`synth evaluate ${f.release} --agent openai:golden --concurrency N --fresh\` with the deterministic customer, against the golden model server (bench/golden-model-server.ts) on 127.0.0.1 over real HTTP: every model call answered with the golden trace's next call after ${f.latency_ms} ms (a fresh LLM response cache per run, so every call reaches the server). Model calls, the most in flight at once and the window (first request received to last answer sent) are counted by the server; ideal = model calls × ${f.latency_ms} ms ÷ N. The process time adds the CLI's start-up, loading and verifying the release, and writing results.jsonl, summary.json and report.html. \`--concurrency N\` sets the episodes in flight; the model calls in flight per provider are the configuration's \`concurrency\` (default 4; FOUNDRY_CONCURRENCY): the judged rows raise it to N, the rows marked \"default (4)\" leave it as configured. Concurrency 1 runs one domain at E0 only (the whole release one call at a time would take minutes).`,
    "",
    "| N | provider limit | evaluated | model calls | max in flight | window s | ideal s | window ÷ ideal | process s (÷ ideal) | 1-min load |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...f.rows.map((r) => `| ${r.concurrency} | ${limit(r)} | ${r.selection} | ${r.model_calls} | ${r.max_in_flight} | ${(r.window_ms / 1000).toFixed(2)} | ${(r.ideal_ms / 1000).toFixed(2)} | ${r.judged ? `**${r.ratio}×** (target ≤ ${1 + WITHIN}×: ${r.ratio <= 1 + WITHIN ? "met" : "missed"})` : `${r.ratio}×`} | ${(r.process_ms / 1000).toFixed(2)} (${r.process_ratio}×) | ${r.load_1m} |`),
    "",
    notes,
    END,
  ].join("\n");
  writeBenchmarksSection(START, END, body);
}

function currentNotes(): string {
  try {
    const m = /<!-- evaluator-latency:notes:start -->[\s\S]*?<!-- evaluator-latency:notes:end -->/.exec(readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8"));
    return m ? m[0] : "<!-- evaluator-latency:notes:start -->\n<!-- evaluator-latency:notes:end -->";
  } catch {
    return "";
  }
}

const fromJson = process.argv.indexOf("--from-json");
const f: Figures = fromJson >= 0 ? (JSON.parse(readFileSync(process.argv[fromJson + 1] as string, "utf8")) as Figures) : await measure();
if (process.argv.includes("--json")) console.log(JSON.stringify(f, null, 2));
else {
  const table = new Table({ head: ["N", "provider limit", "evaluated", "model calls", "max in flight", "window s", "ideal s", "window ÷ ideal", "process s", "load 1m"] });
  for (const r of f.rows) table.push([r.concurrency, r.provider_limit ?? "default", r.selection, r.model_calls, r.max_in_flight, (r.window_ms / 1000).toFixed(2), (r.ideal_ms / 1000).toFixed(2), `${r.ratio}×${r.judged ? ` (target ≤ ${1 + WITHIN})` : ""}`, (r.process_ms / 1000).toFixed(2), r.load_1m]);
  console.log(table.toString());
}
if (process.argv.includes("--write")) writeSection(f, currentNotes());
reportMissed(f.rows.filter((r) => r.judged && r.ratio > 1 + WITHIN).map((r) => `concurrency ${r.concurrency}: ${r.ratio}× ideal (target ≤ ${1 + WITHIN}×)`));
