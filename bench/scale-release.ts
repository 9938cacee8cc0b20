// Export and audit of a 10,000-task release, and of a 1,000-task one side by side: memory must not
// grow with the number of tasks beyond one task's working set plus the index. The tasks are not
// 10,000 built slots (hours of calibration): the synthetic domain is built once, offline, with the
// real CLI (bench/lib/replicated-release.ts: 800 documents, 600 operations, 10 slots) and its
// released tasks are copied under new ids (bench/lib/replicate-tasks.ts, the id rewritten in every
// file of the task). Each size is exported with `node bin/synth.js release` (which audits its staged
// folder before publishing) and audited with `node bin/synth.js audit`, each its own child process
// under GNU time (wall, peak RSS, CPU). Everything lives in a temporary folder under the OS temp
// directory, deleted size by size and at the end.
// Targets (10,000 tasks): audit < 2 minutes and < 1 GB peak. Export has no target; its figures and
// their ratio 10,000 : 1,000 are reported.
// Run: `nice -n 5 node --import tsx bench/scale-release.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures, `--sizes 1000,10000` the release sizes). `--smoke`:
// the smoke-size domain grown to 10 and 30 tasks; targets not judged.
import Table from "cli-table3";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed } from "./lib/smoke.js";
import { acrossReleaseSizes, type ReplicatedRelease } from "./lib/replicated-release.js";
import { sizesArg } from "./lib/sizes-arg.js";
import { RSS_METHOD, load, machine, mib, secs, timedNode, toLimit, type TimedRun } from "./lib/timed-child.js";

const START = "<!-- scale-release:start -->";
const END = "<!-- scale-release:end -->";
const TARGETS = { audit_ms_max: 2 * 60_000, audit_rss_kib_max: 1024 * 1024 };

/** The audit's closing line: `ok: N of N golden traces pass; violation traces K of M killed; …`. */
const VERDICT = /^(ok|FAILED): (\d+) of (\d+) golden traces pass; violation traces (\d+) of (\d+) killed/m;

interface SizeFigures {
  tasks: number;
  built: number;
  export: Omit<TimedRun, "stdout">;
  audit: Omit<TimedRun, "stdout"> & { ok: boolean; golden_passed: number; mutants_killed: number; mutants_total: number; verdict: string };
  load_average: number[];
}

const figuresOf = (r: TimedRun) => ({ wall_ms: Math.round(r.wall_ms), max_rss_kib: r.max_rss_kib, cpu_ms: r.cpu_ms });

function measureSize(rel: ReplicatedRelease): SizeFigures {
  const audit = timedNode(["bin/synth.js", "audit", rel.dir], { allowFailure: true });
  const m = VERDICT.exec(audit.stdout);
  if (!m) throw new Error(`synth audit exited ${audit.status} without its verdict line: ${audit.stderr.slice(-1000)}`);
  return {
    tasks: rel.tasks,
    built: rel.built,
    export: figuresOf(rel.exported),
    audit: { ...figuresOf(audit), ok: audit.status === 0 && m[1] === "ok", golden_passed: Number(m[2]), mutants_killed: Number(m[4]), mutants_total: Number(m[5]), verdict: m[0] },
    load_average: load(),
  };
}

function measure() {
  const { opts, build, free_gib, bySize } = acrossReleaseSizes("scale-release", sizesArg(SMOKE ? [10, 30] : [1000, 10000]), SMOKE, measureSize);
  const big = bySize.at(-1) as SizeFigures;
  const small = bySize[0] as SizeFigures;
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((a / b) * 100) / 100);
  return {
    command: "nice -n 5 node --import tsx bench/scale-release.ts --write",
    ...machine(),
    rss_method: RSS_METHOD,
    free_gib,
    domain: { ...opts, catalog_capabilities: opts.operations - opts.lines * 6, build_wall_ms: Math.round(build.run.wall_ms), released: build.released },
    sizes: bySize,
    ratios: {
      tasks: big.tasks / small.tasks,
      export_wall: ratio(big.export.wall_ms, small.export.wall_ms),
      export_rss: ratio(big.export.max_rss_kib, small.export.max_rss_kib),
      audit_wall: ratio(big.audit.wall_ms, small.audit.wall_ms),
      audit_rss: ratio(big.audit.max_rss_kib, small.audit.max_rss_kib),
    },
    targets: TARGETS,
    met: {
      audit_wall: big.audit.wall_ms < TARGETS.audit_ms_max,
      audit_rss: big.audit.max_rss_kib !== null && big.audit.max_rss_kib < TARGETS.audit_rss_kib_max,
      audit_ok: bySize.every((s) => s.audit.ok),
    },
  };
}

type Figures = ReturnType<typeof measure>;

function writeSection(f: Figures): void {
  const [small, big] = [f.sizes[0] as SizeFigures, f.sizes.at(-1) as SizeFigures];
  const cpu = (ms: number | null) => (ms === null ? "–" : secs(ms));
  const rows = f.sizes.flatMap((s) => [
    `| ${s.tasks.toLocaleString("en-GB")} | export (\`synth release\`, its own audit of the staged folder included) | ${secs(s.export.wall_ms)} | ${cpu(s.export.cpu_ms)} | ${mib(s.export.max_rss_kib)} | – | ${s.load_average[0]} |`,
    `| ${s.tasks.toLocaleString("en-GB")} | audit (\`synth audit\`) | **${secs(s.audit.wall_ms)}** | ${cpu(s.audit.cpu_ms)} | **${mib(s.audit.max_rss_kib)}** | ${s === big ? `wall ${toLimit(s.audit.wall_ms, f.targets.audit_ms_max)}, RSS ${toLimit(s.audit.max_rss_kib, f.targets.audit_rss_kib_max)}` : "–"} | ${s.load_average[0]} |`,
  ]);
  writeBenchmarksSection(
    START,
    END,
    [
      START,
      "## Scale: exporting and auditing a 10,000-task release (`bench/scale-release.ts`)",
      "",
      `Command: \`${f.command}\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, the script and its children at \`nice -n 5\`; the 1-minute load average after each size is in the table (other jobs shared the 2 cores).`,
      "",
      `**How 10,000 tasks were made.** Building 10,000 real task slots would take hours, so the synthetic domain (bench/lib/synthetic-domain.ts, seed ${f.domain.seed}: ${f.domain.documents} documents, ${f.domain.operations} operations of which ${f.domain.catalog_capabilities} catalog capabilities, ${f.domain.slots} slots) is built once with the real CLI (${secs(f.domain.build_wall_ms)}; ${f.domain.released} tasks released), and its released tasks are **copied under new ids** (bench/lib/replicate-tasks.ts): each copy is one of the ${f.domain.released} built tasks with the task id rewritten everywhere it appears in the task's files (task, golden trace, violation traces, its validation entry and coverage lists), and the build record is rewritten for the files now present. The copies cost the exporter and the auditor what their sources cost, but they are not distinct tasks.`,
      "",
      `Each size is exported with \`node bin/synth.js release scale --version 1.0.0 --generated … --sources … --out …\` (collect, write into a staging folder, audit it, publish) and audited with \`node bin/synth.js audit <release>\`, each one child process; peak memory and CPU time by ${f.rss_method}. All of it in a temporary folder under the OS temp directory (${f.free_gib} GiB free at the start), deleted after each size.`,
      "",
      "| tasks | step | wall | CPU (user + sys) | peak RSS | ÷ limit (audit at 10,000: < 2 min, < 1 GB) | load (1 min) |",
      "|---|---|---|---|---|---|---|",
      ...rows,
      "",
      `Side by side, ${big.tasks.toLocaleString("en-GB")} : ${small.tasks.toLocaleString("en-GB")} tasks (${f.ratios.tasks}× the tasks): export wall ${f.ratios.export_wall}×, export peak RSS ${f.ratios.export_rss}×; audit wall ${f.ratios.audit_wall}×, audit peak RSS ${f.ratios.audit_rss}×. Audit verdicts: ${f.sizes.map((s) => `${s.tasks}: \`${s.audit.verdict}\``).join("; ")}.`,
      "",
      `Targets at ${big.tasks.toLocaleString("en-GB")} tasks: audit < 2 minutes: **${f.met.audit_wall ? "met" : "missed"}** (${toLimit(big.audit.wall_ms, f.targets.audit_ms_max)} of the limit); audit peak < 1 GB: **${f.met.audit_rss ? "met" : "missed"}** (${toLimit(big.audit.max_rss_kib, f.targets.audit_rss_kib_max)}); every audit clean: ${f.met.audit_ok ? "yes" : "no"}.`,
      END,
    ].join("\n"),
  );
}

function main(): void {
  const f = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(f, null, 2));
  else {
    const table = new Table({ head: ["tasks", "export wall", "export RSS", "audit wall", "audit CPU", "audit RSS", "audit"] });
    for (const s of f.sizes) table.push([s.tasks, secs(s.export.wall_ms), mib(s.export.max_rss_kib), secs(s.audit.wall_ms), s.audit.cpu_ms === null ? "–" : secs(s.audit.cpu_ms), mib(s.audit.max_rss_kib), s.audit.ok ? "ok" : "FAILED"]);
    console.log(table.toString());
    console.log(`ratios ${f.ratios.tasks}× tasks: export wall ${f.ratios.export_wall}×, RSS ${f.ratios.export_rss}×; audit wall ${f.ratios.audit_wall}×, RSS ${f.ratios.audit_rss}×; domain built in ${secs(f.domain.build_wall_ms)} (${f.domain.released} tasks released)`);
  }
  if (process.argv.includes("--write")) writeSection(f);
  const big = f.sizes.at(-1) as SizeFigures;
  reportMissed([
    ...(f.met.audit_wall ? [] : [`audit of ${big.tasks} tasks ${secs(big.audit.wall_ms)} (target < 2 min)`]),
    ...(f.met.audit_rss ? [] : [`audit of ${big.tasks} tasks peak RSS ${mib(big.audit.max_rss_kib)} (target < 1 GB)`]),
    ...(f.met.audit_ok ? [] : ["an audit of a replicated release was not clean"]),
  ]);
}

main();
