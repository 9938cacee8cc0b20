// An oracle evaluation of 10,000 episodes, and of 1,000 side by side: `node bin/synth.js evaluate
// RELEASE --agent oracle --conditions E0` over a release of that many tasks (one episode per task),
// one child process under GNU time (wall, episodes/s, peak RSS, CPU). The release is made as
// bench/scale-release.ts makes it: the synthetic domain built once with the real CLI, its released
// tasks copied under new ids (bench/lib/replicate-tasks.ts), exported with `synth release`; all in a
// temporary folder under the OS temp directory, deleted size by size and at the end.
// No target is set for the evaluation; the figures and their ratios 10,000 : 1,000 are reported.
// The one judged condition is that the oracle solves every episode (it replays the golden traces).
// Run: `nice -n 5 node --import tsx bench/scale-evaluate.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures, `--sizes 1000,10000` the episode counts). `--smoke`:
// 12 and 36 episodes on the smoke-size domain; not judged.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Table from "cli-table3";
import { z } from "zod";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed } from "./lib/smoke.js";
import { acrossReleaseSizes, type ReplicatedRelease } from "./lib/replicated-release.js";
import { sizesArg } from "./lib/sizes-arg.js";
import { RSS_METHOD, load, machine, mib, secs, timedNode } from "./lib/timed-child.js";

const START = "<!-- scale-evaluate:start -->";
const END = "<!-- scale-evaluate:end -->";

/** What this benchmark reads of the evaluation's summary.json: the E0 episodes and their strict success rate. */
const Summary = z.looseObject({
  by_condition: z.looseObject({ E0: z.looseObject({ episodes: z.number().int(), strict_success: z.looseObject({ rate: z.number(), n: z.number().int() }) }) }),
});

interface SizeFigures {
  episodes: number;
  /** "S of N solved": episodes the oracle solved strictly, of those run. */
  summary: string;
  export_wall_ms: number;
  wall_ms: number;
  episodes_per_s: number;
  max_rss_kib: number | null;
  cpu_ms: number | null;
  load_average: number[];
}

/** Episodes the oracle solved (strictly: goal, process and protection checks all pass) and episodes run, from the evaluation's summary.json. */
function solvedOf(summaryFile: string): { solved: number; total: number } {
  const parsed = Summary.safeParse(JSON.parse(readFileSync(summaryFile, "utf8")));
  if (!parsed.success) throw new Error(`${summaryFile} has no E0 strict success rate: ${parsed.error.message}`);
  const e0 = parsed.data.by_condition.E0;
  return { solved: Math.round(e0.strict_success.rate * e0.strict_success.n), total: e0.episodes };
}

function measureSize(rel: ReplicatedRelease, root: string): SizeFigures {
  const out = join(root, "evaluation");
  const run = timedNode(["bin/synth.js", "evaluate", rel.dir, "--agent", "oracle", "--conditions", "E0", "--out", out]);
  const { solved, total } = solvedOf(join(out, "summary.json"));
  return {
    episodes: rel.tasks,
    summary: `${solved} of ${total} solved`,
    export_wall_ms: Math.round(rel.exported.wall_ms),
    wall_ms: Math.round(run.wall_ms),
    episodes_per_s: Math.round((rel.tasks / (run.wall_ms / 1000)) * 10) / 10,
    max_rss_kib: run.max_rss_kib,
    cpu_ms: run.cpu_ms,
    load_average: load(),
  };
}

function measure() {
  const { opts, build, free_gib, bySize } = acrossReleaseSizes("scale-evaluate", sizesArg(SMOKE ? [12, 36] : [1000, 10000]), SMOKE, measureSize);
  const [small, big] = [bySize[0] as SizeFigures, bySize.at(-1) as SizeFigures];
  const ratio = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.round((a / b) * 100) / 100);
  return {
    command: "nice -n 5 node --import tsx bench/scale-evaluate.ts --write",
    ...machine(),
    rss_method: RSS_METHOD,
    free_gib,
    domain: { ...opts, build_wall_ms: Math.round(build.run.wall_ms), released: build.released },
    sizes: bySize,
    ratios: { episodes: big.episodes / small.episodes, wall: ratio(big.wall_ms, small.wall_ms), rss: ratio(big.max_rss_kib, small.max_rss_kib) },
    all_solved: bySize.every((s) => s.summary === `${s.episodes} of ${s.episodes} solved`),
  };
}

type Figures = ReturnType<typeof measure>;

function writeSection(f: Figures): void {
  const cpu = (ms: number | null) => (ms === null ? "–" : secs(ms));
  writeBenchmarksSection(
    START,
    END,
    [
      START,
      "## Scale: an oracle evaluation of 10,000 episodes (`bench/scale-evaluate.ts`)",
      "",
      `Command: \`${f.command}\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, the script and its children at \`nice -n 5\`; the 1-minute load average after each size is in the table (other jobs shared the 2 cores).`,
      "",
      `The release is made as in the section above: the synthetic domain (${f.domain.documents} documents, ${f.domain.operations} operations, ${f.domain.slots} slots, seed ${f.domain.seed}) built once with the real CLI (${secs(f.domain.build_wall_ms)}, ${f.domain.released} tasks released), its released tasks **copied under new ids** to the episode count (the copies are not distinct tasks), exported with \`synth release\`. Each evaluation is one child process, \`node bin/synth.js evaluate RELEASE --agent oracle --conditions E0 --out …\` (one episode per task, the embedded backend, the configuration's default concurrency); wall from spawn to exit (the release's integrity check and the report included); peak memory and CPU time by ${f.rss_method}. In a temporary folder under the OS temp directory (${f.free_gib} GiB free at the start), deleted after each size.`,
      "",
      "| episodes | wall | episodes/s | CPU (user + sys) | peak RSS | oracle | load (1 min) |",
      "|---|---|---|---|---|---|---|",
      ...f.sizes.map((s) => `| ${s.episodes.toLocaleString("en-GB")} | **${secs(s.wall_ms)}** | **${s.episodes_per_s}** | ${cpu(s.cpu_ms)} | **${mib(s.max_rss_kib)}** | ${s.summary} | ${s.load_average[0]} |`),
      "",
      `Side by side (${f.ratios.episodes}× the episodes): wall ${f.ratios.wall}×, peak RSS ${f.ratios.rss}×. No target is set for the evaluation in the issue, so no ratio to a limit is given; the oracle solving every episode is checked (${f.all_solved ? "it did" : "it did not"}).`,
      END,
    ].join("\n"),
  );
}

function main(): void {
  const f = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(f, null, 2));
  else {
    const table = new Table({ head: ["episodes", "wall", "episodes/s", "CPU", "peak RSS", "oracle"] });
    for (const s of f.sizes) table.push([s.episodes, secs(s.wall_ms), s.episodes_per_s, s.cpu_ms === null ? "–" : secs(s.cpu_ms), mib(s.max_rss_kib), s.summary]);
    console.log(table.toString());
    console.log(`ratios ${f.ratios.episodes}× episodes: wall ${f.ratios.wall}×, peak RSS ${f.ratios.rss}×; domain built in ${secs(f.domain.build_wall_ms)} (${f.domain.released} tasks released)`);
  }
  if (process.argv.includes("--write")) writeSection(f);
  reportMissed(f.all_solved ? [] : [`the oracle did not solve every episode (${f.sizes.map((s) => s.summary).join("; ")})`]);
}

main();
