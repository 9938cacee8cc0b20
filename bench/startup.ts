// Start-up of the `synth` CLI: `node bin/synth.js --help` (the listing, built from commands/index.ts
// with no command module loaded) against a bare `node -e 0`, side by side in the same run, plus
// `synth --version` and a lazily loaded command's own help (`synth build --help`, which imports the
// build command's module and with it the synthesis graph's libraries). Child processes of the real
// CLI, interleaved (one of each per round) after a warm-up round. Run:
// `nice -n 5 node --import tsx bench/startup.ts` (`--write` rewrites this section of BENCHMARKS.md,
// `--json` prints the figures as JSON, `--runs N` changes the rounds, default 15; `--smoke`: one
// round, no warm-up, no peak-memory runs, targets not judged).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import Table from "cli-table3";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";
import { arg, childEnv, median, quantile } from "./lib/measure.js";

const START = "<!-- startup:start -->";
const END = "<!-- startup:end -->";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";
/** Target: `synth --help` within this many times a bare `node -e 0` (medians). */
const HELP_RATIO_MAX = 5;


const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;


interface Variant {
  key: string;
  label: string;
  command: string;
  args: string[];
}

const VARIANTS: Variant[] = [
  { key: "node", label: "bare `node -e 0`", command: "node -e 0", args: ["-e", "0"] },
  { key: "help", label: "`synth --help` (listing, no command loaded)", command: "node bin/synth.js --help", args: ["bin/synth.js", "--help"] },
  { key: "version", label: "`synth --version`", command: "node bin/synth.js --version", args: ["bin/synth.js", "--version"] },
  { key: "build_help", label: "`synth build --help` (loads the build command's module)", command: "node bin/synth.js build --help", args: ["bin/synth.js", "build", "--help"] },
];

/** Wall time (ms) of one child, from spawn to exit; fails loudly when the child fails. */
function wall(v: Variant): number {
  const t = performance.now();
  const r = spawnSync(process.execPath, v.args, { cwd: ROOT, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - t;
  if (r.status !== 0) throw new Error(`\`${v.command}\` exited ${r.status}: ${r.stderr.toString().slice(0, 500)}`);
  return ms;
}

/** Peak resident memory (KiB) of one child, by GNU time's %M (its max RSS, from wait4), or null without it. */
function maxRss(v: Variant, dir: string): number | null {
  if (!existsSync(TIME)) return null;
  const out = join(dir, `${v.key}.rss`);
  const r = spawnSync(TIME, ["-f", "%M", "-o", out, process.execPath, ...v.args], { cwd: ROOT, env: childEnv(), stdio: "ignore" });
  if (r.status !== 0) return null;
  return Number(readFileSync(out, "utf8").trim().split("\n").pop());
}

function measure() {
  const runs = arg("--runs", size(15, 1));
  const dir = mkdtempSync(join(tmpdir(), "foundry-bench-startup-"));
  try {
    // Warm-up: the page cache holds node, the compiled CLI (build/js/<hash>/) and node_modules.
    if (!SMOKE) for (const v of VARIANTS) wall(v);
    const times = new Map<string, number[]>(VARIANTS.map((v) => [v.key, []]));
    const ratios: number[] = [];
    for (let r = 0; r < runs; r++) {
      // Interleaved, so that background load hits every variant alike; the --help : node ratio of each round as well.
      const round = new Map<string, number>();
      for (const v of VARIANTS) {
        const ms = wall(v);
        round.set(v.key, ms);
        times.get(v.key)!.push(ms);
      }
      ratios.push((round.get("help") as number) / (round.get("node") as number));
    }
    const load = loadavg();
    const rows = VARIANTS.map((v) => {
      const t = times.get(v.key)!;
      return { key: v.key, label: v.label, command: v.command, median_ms: round1(median(t)), p90_ms: round1(quantile(t, 0.9)), min_ms: round1(Math.min(...t)), max_rss_kib: SMOKE ? null : maxRss(v, dir) };
    });
    const nodeMs = rows[0]!.median_ms;
    const helpRatio = round2(rows[1]!.median_ms / nodeMs);
    return {
      command: "nice -n 5 node --import tsx bench/startup.ts --write",
      node: process.version,
      cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}`,
      nice: "nice -n 5 (children inherit it)",
      load_average: load.map(round2),
      runs,
      rss_method: existsSync(TIME) ? "GNU time %M (max RSS of the child, from wait4)" : "not available (no /usr/bin/time)",
      variants: rows.map((r) => ({ ...r, ratio_to_node: round2(r.median_ms / nodeMs) })),
      help_ratio_median: helpRatio,
      help_ratio_per_round_median: round2(median(ratios)),
      help_ratio_per_round_range: [round2(Math.min(...ratios)), round2(Math.max(...ratios))],
      targets: { help_ratio_max: HELP_RATIO_MAX },
      met: { help_ratio: helpRatio <= HELP_RATIO_MAX },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = ReturnType<typeof measure>;

function writeSection(f: Figures): void {
  const kib = (x: number | null) => (x === null ? "–" : `${Math.round(x / 1024)} MiB`);
  const body = [
    START,
    "## CLI: start-up (`bench/startup.ts`)",
    "",
    `Command: \`${f.command}\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, the script and its children at \`nice -n 5\`; load average ${f.load_average.join(" / ")} (1 / 5 / 15 min) at the end of the run (other jobs shared the 2 cores).`,
    "",
    `Each command a fresh child process of the real CLI (\`bin/synth.js\`, which checks the compiled JavaScript of build/js/<hash>/ is current and imports it), timed from spawn to exit. One warm-up round, then ${f.runs} interleaved rounds (one run of each command per round); median and p90 (nearest rank) of the wall time. Peak memory: one more run of each under ${f.rss_method}.`,
    "",
    "| command | median ms | p90 ms | fastest ms | median ÷ `node -e 0` | peak RSS |",
    "|---|---|---|---|---|---|",
    ...f.variants.map((v) => `| ${v.label}: \`${v.command}\` | ${v.median_ms} | ${v.p90_ms} | ${v.min_ms} | ${v.key === "help" ? `**${v.ratio_to_node}×** (target ≤ ${f.targets.help_ratio_max}×: ${f.met.help_ratio ? "met" : "missed"}, ${round2(v.ratio_to_node / f.targets.help_ratio_max)} of the limit)` : `${v.ratio_to_node}×`} | ${kib(v.max_rss_kib)} |`),
    "",
    `Per round, \`--help\` ÷ \`node -e 0\`: median ${f.help_ratio_per_round_median}×, range ${f.help_ratio_per_round_range[0]}–${f.help_ratio_per_round_range[1]}×. \`synth --help\` and \`--version\` load commander and the command list only (pipeline/cli/main.ts, commands/index.ts); what they add to a bare node is bin/compile.mjs's check that build/js/<hash>/ is current (a stat of every source file against build/js/sources.json, and hashing that list) and the ES module graph of the CLI entry. \`synth build --help\` imports the build command's module (its options, the zod schemas and the summary printer); the synthesis graph's libraries (LangGraph, LangChain, SQLite) load only when a build or resume runs, and that is the start-up every \`synth build\` pays before its first stage (see the build section).`,
    END,
  ].join("\n");
  writeBenchmarksSection(START, END, body);
}

function main(): void {
  const f = measure();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(f, null, 2));
  } else {
    const table = new Table({ head: ["command", "median ms", "p90 ms", "fastest ms", "÷ node -e 0", "peak RSS KiB"] });
    for (const v of f.variants) table.push([v.command, v.median_ms, v.p90_ms, v.min_ms, v.ratio_to_node, v.max_rss_kib ?? "–"]);
    console.log(table.toString());
    console.log(`${f.runs} interleaved rounds; load average ${f.load_average.join(" ")}; --help ÷ node -e 0 per round: median ${f.help_ratio_per_round_median}, range ${f.help_ratio_per_round_range.join("–")}`);
  }
  if (process.argv.includes("--write")) writeSection(f);
  reportMissed(f.met.help_ratio ? [] : [`synth --help ${f.help_ratio_median}× node -e 0 (target ≤ ${HELP_RATIO_MAX}×)`]);
}

main();
