// `synth build` of the three sample domains, with child processes of the real CLI in a fresh
// temporary working copy (sources/ and sop/ copied; --sources, --sop and --generated point there):
// from scratch (empty generated/), the no-op rebuild (the same command again) and the rebuild after
// one document edit (a sentence appended to one domain's FAQ). Wall time and peak memory (max RSS
// of the child) of each, and which stages ran again: stage-cache misses (the build's --json result)
// and the cache entries each build added (generated/cache/stages/<stage>/), per domain from the
// progress events. `node -e 0` and `synth --help` in the same run give the no-op rebuild's ratio to
// start-up. Run: `nice -n 5 node --import tsx bench/build.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures as JSON, `--noop-runs N` repeats the no-op rebuild, default 3).
// `--smoke`: only fx-treasury with 1 task slot, one no-op rebuild, one start-up round
// before the builds (no warm-up, no `synth build --help`); targets not judged.
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, writeFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import Table from "cli-table3";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";
import { arg, childEnv, median } from "./lib/measure.js";
import type { ProgressEvent } from "../pipeline/build/progress.js";

const START = "<!-- build:start -->";
const END = "<!-- build:end -->";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const TIME = "/usr/bin/time";
const TARGETS = { scratch_ms_max: 45_000, noop_ms_max: 2_000 };
/** The edit: a harmless sentence appended to the FAQ of one domain (no procedure, rule or world change). */
const EDIT = { domain: "fx-treasury", file: "docs/treasury-services-faq.md", text: "\nThe treasury services hub answers client calls on every business day.\n" };
/** Stages that run before the task slots (per domain, one cache look-up each, shown in the progress events). */
const BEFORE_TASKS = ["ingest", "extract_sop"] as const;

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;


interface Run {
  wall_ms: number;
  /** Max RSS of the child (KiB), by GNU time's %M; null without /usr/bin/time. */
  max_rss_kib: number | null;
  /** User + system CPU time of the child (ms), by GNU time's %U + %S; null without it. */
  cpu_ms: number | null;
  stdout: string;
}

/** One child process (`node <args>` in the repository root), under GNU time when present for its peak memory. */
function child(args: string[], dir: string): Run {
  const rssFile = join(dir, "time.out");
  const withTime = existsSync(TIME);
  const [cmd, argv] = withTime ? [TIME, ["-f", "%M %U %S", "-o", rssFile, process.execPath, ...args]] : [process.execPath, args];
  const t = performance.now();
  const r = spawnSync(cmd, argv as string[], { cwd: ROOT, env: childEnv(), stdio: ["ignore", "pipe", "pipe"], maxBuffer: 512 * 1024 * 1024 });
  const wall = performance.now() - t;
  if (r.status !== 0) throw new Error(`\`node ${args.join(" ")}\` exited ${r.status}: ${r.stderr.toString().slice(-2000)}`);
  const [rss, user, sys] = withTime ? (readFileSync(rssFile, "utf8").trim().split("\n").pop() as string).split(" ").map(Number) : [];
  return { wall_ms: wall, max_rss_kib: rss ?? null, cpu_ms: user !== undefined && sys !== undefined ? Math.round((user + sys) * 1000) : null, stdout: r.stdout.toString() };
}

/** Every entry file of the stage cache, as `<stage>/<key>.json`. */
function cacheEntries(generated: string): Set<string> {
  const dir = join(generated, "cache", "stages");
  const out = new Set<string>();
  if (!existsSync(dir)) return out;
  for (const stage of readdirSync(dir)) {
    if (!statSync(join(dir, stage)).isDirectory()) continue;
    for (const f of readdirSync(join(dir, stage))) if (f.endsWith(".json")) out.add(`${stage}/${f}`);
  }
  return out;
}

/** A line of the build's `--json` output: a progress event, or the closing `result` line. */
type ProgressLine = Omit<ProgressEvent, "event"> & { event: ProgressEvent["event"] | "result" };

interface DomainRerun {
  domain: string;
  /** Stages run again in this domain (not served from the stage cache), as the progress events show them. */
  rerun: string[];
  /** Whether the task slots' records were reused whole (reuse-tasks.ts). */
  tasks_reused: boolean;
  /** Output files the build rewrote in generated/<domain>/ (it writes only what changed). */
  files_written: number;
  /** Served from its up-to-date record (pipeline/build/up-to-date.ts): the graph did not run for it. */
  up_to_date: boolean;
}

/**
 * Which stages each domain ran again, from the --json progress events (domains run one after the
 * other). ingest and extract_sop report their one cache look-up; the task stages either report
 * "records reused" or run, each shown with its items and cache hits. build_environment's look-ups
 * (domain_context, design_units) are not in its event: it computes anew exactly when the documents,
 * the SOP or the world changed, so it is counted with a domain whose ingest or SOP ran again; the
 * cache entries the build added (counted per stage separately) check the count.
 */
function reruns(lines: ProgressLine[], result: { domains: Array<{ domain: string; written: string[] }>; up_to_date?: Array<{ domain: string }> }): DomainRerun[] {
  return result.domains.map((d) => {
    if (result.up_to_date?.some((u) => u.domain === d.domain)) return { domain: d.domain, rerun: [], tasks_reused: false, files_written: 0, up_to_date: true };
    const ev = lines.filter((l) => l.domain === d.domain);
    const rerun: string[] = [];
    for (const s of BEFORE_TASKS) {
      const done = ev.find((l) => l.event === "stage_done" && l.stage === s);
      if (done && (done.cache_hits ?? 0) === 0) rerun.push(s);
    }
    if (rerun.length > 0) rerun.push("build_environment");
    const reused = ev.some((l) => l.event === "stage_done" && l.stage === "design_tasks" && /records reused/.test(l.detail ?? ""));
    if (!reused) {
      // design_tasks reports per item (cache_hits so far); the other slot stages once per pass.
      const design = ev.filter((l) => l.event === "item" && l.stage === "design_tasks").pop();
      if (design && (design.total ?? 0) > (design.cache_hits ?? 0)) rerun.push(`design_tasks (${(design.total ?? 0) - (design.cache_hits ?? 0)} of ${design.total} slots)`);
      for (const l of ev.filter((x) => x.event === "stage_done" && x.stage !== "design_tasks" && !BEFORE_TASKS.includes(x.stage as (typeof BEFORE_TASKS)[number]) && x.stage !== "build_environment")) {
        const missed = (l.total ?? 0) - (l.cache_hits ?? 0);
        if (l.cache_hits === undefined || missed > 0) rerun.push(`${l.stage} (${l.cache_hits === undefined ? l.total : missed} of ${l.total})`);
      }
    }
    return { domain: d.domain, rerun, tasks_reused: reused, files_written: d.written.length, up_to_date: false };
  });
}

interface BuildFigures {
  wall_ms: number;
  max_rss_kib: number | null;
  cpu_ms: number | null;
  cache_hits: number;
  cache_misses: number;
  /** Stage-cache entries this build added, per stage (a miss computes and stores one). */
  new_cache_entries: Record<string, number>;
  released: number;
  domains: DomainRerun[];
  /** Per stage, the build's own timing table (sum over domains and slots; parallel slots overlap). */
  stage_ms: Record<string, number>;
}

function build(dir: string, paths: { sources: string; sop: string; generated: string }): BuildFigures {
  const before = cacheEntries(paths.generated);
  const r = child(["bin/synth.js", "build", "--sources", paths.sources, "--sop", paths.sop, "--generated", paths.generated, "--json"], dir);
  const lines = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as ProgressLine & Record<string, unknown>);
  const result = lines.find((l) => l.event === "result") as unknown as { cache: { hits: number; misses: number }; stats: Array<{ stage: string; ms: number }>; domains: Array<{ domain: string; released: number; written: string[] }>; up_to_date: Array<{ domain: string }> } | undefined;
  if (!result) throw new Error("the build printed no result event");
  const added: Record<string, number> = {};
  for (const e of cacheEntries(paths.generated)) {
    if (before.has(e)) continue;
    const stage = e.split("/")[0] as string;
    added[stage] = (added[stage] ?? 0) + 1;
  }
  return {
    wall_ms: round1(r.wall_ms),
    max_rss_kib: r.max_rss_kib,
    cpu_ms: r.cpu_ms,
    cache_hits: result.cache.hits,
    cache_misses: result.cache.misses,
    new_cache_entries: added,
    released: result.domains.reduce((n, d) => n + d.released, 0),
    domains: reruns(lines, result),
    stage_ms: Object.fromEntries(result.stats.filter((s) => s.ms > 0).map((s) => [s.stage, s.ms])),
  };
}

function measure() {
  const noopRuns = arg("--noop-runs", size(3, 1));
  const dir = mkdtempSync(join(tmpdir(), "foundry-bench-build-"));
  try {
    if (SMOKE) {
      // The edited domain alone, with one task slot.
      cpSync(join(ROOT, "sources", EDIT.domain), join(dir, "sources", EDIT.domain), { recursive: true });
      cpSync(join(ROOT, "sop", EDIT.domain), join(dir, "sop", EDIT.domain), { recursive: true });
      const card = join(dir, "sources", EDIT.domain, "domain.yaml");
      writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 1"));
    } else {
      cpSync(join(ROOT, "sources"), join(dir, "sources"), { recursive: true });
      cpSync(join(ROOT, "sop"), join(dir, "sop"), { recursive: true });
    }
    const paths = { sources: join(dir, "sources"), sop: join(dir, "sop"), generated: join(dir, "generated") };
    // Start-up references first (also warms the page cache with node, the compiled CLI and node_modules).
    const startup = { node: [] as number[], help: [] as number[], buildHelp: [] as number[] };
    const startupRound = () => {
      startup.node.push(child(["-e", "0"], dir).wall_ms);
      startup.help.push(child(["bin/synth.js", "--help"], dir).wall_ms);
      // The build command's module and the libraries it imports: what every build pays before its first stage (not in smoke runs).
      if (!SMOKE) startup.buildHelp.push(child(["bin/synth.js", "build", "--help"], dir).wall_ms);
    };
    if (!SMOKE) child(["bin/synth.js", "--help"], dir);
    for (let i = 0; i < size(3, 1); i++) startupRound();
    const load: Record<string, number[]> = {};
    const scratch = build(dir, paths);
    load.scratch = loadavg().map(round2);
    const noop: BuildFigures[] = [];
    for (let i = 0; i < noopRuns; i++) {
      noop.push(build(dir, paths));
      if (!SMOKE) startupRound();
    }
    load.noop = loadavg().map(round2);
    // The same no-op through the graph: the up-to-date records removed, every stage served from the stage cache.
    rmSync(join(paths.generated, "runs", "up-to-date"), { recursive: true, force: true });
    const graphNoop = build(dir, paths);
    appendFileSync(join(paths.sources, EDIT.domain, EDIT.file), EDIT.text);
    const edit = build(dir, paths);
    load.edit = loadavg().map(round2);
    for (let i = 0; i < size(2, 0); i++) startupRound();
    const nodeMs = median(startup.node);
    const helpMs = median(startup.help);
    const noopMid = [...noop].sort((a, b) => a.wall_ms - b.wall_ms)[Math.floor(noop.length / 2)] as BuildFigures;
    const others = edit.domains.filter((d) => d.domain !== EDIT.domain);
    const edited = edit.domains.find((d) => d.domain === EDIT.domain);
    const editEntries = Object.values(edit.new_cache_entries).reduce((a, b) => a + b, 0);
    const met = {
      scratch: scratch.wall_ms < TARGETS.scratch_ms_max,
      noop: noopMid.wall_ms < TARGETS.noop_ms_max,
      // Only what depends on the edit: nothing in the other domains, the edited domain's documents read again.
      edit: others.every((d) => d.up_to_date || (d.rerun.length === 0 && d.tasks_reused && d.files_written === 0)) && Boolean(edited?.rerun.includes("ingest")) && editEntries === edit.cache_misses,
      noop_no_misses: noop.every((n) => n.cache_misses === 0) && graphNoop.cache_misses === 0,
      noop_up_to_date: noop.every((n) => n.domains.every((d) => d.up_to_date)),
    };
    return {
      command: "nice -n 5 node --import tsx bench/build.ts --write",
      node: process.version,
      cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}`,
      load_average: load,
      rss_method: existsSync(TIME) ? "GNU time `/usr/bin/time -f \"%M %U %S\"` around each child (its max RSS and user + system CPU time, from wait4)" : "not available (no /usr/bin/time)",
      domains: scratch.domains.map((d) => d.domain),
      edit: { domain: EDIT.domain, file: `sources/${EDIT.domain}/${EDIT.file}`, appended: EDIT.text.trim() },
      startup: { node_e0_ms: round1(nodeMs), help_ms: round1(helpMs), build_help_ms: round1(median(startup.buildHelp)), runs: startup.node.length },
      scratch,
      noop: { runs: noop.length, median_ms: noopMid.wall_ms, walls_ms: noop.map((n) => n.wall_ms), median_run: noopMid, ratio_to_node: round1(noopMid.wall_ms / nodeMs), ratio_to_help: round1(noopMid.wall_ms / helpMs) },
      graph_noop: graphNoop,
      edit_rebuild: edit,
      targets: TARGETS,
      met,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = ReturnType<typeof measure>;

const mib = (kib: number | null) => (kib === null ? "–" : `${Math.round(kib / 1024)} MiB`);
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const cpuS = (ms: number | null) => (ms === null ? "–" : secs(ms));
const entries = (e: Record<string, number>) =>
  Object.entries(e)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([s, n]) => `${s} ${n}`)
    .join(", ") || "none";
const rerunText = (d: DomainRerun) =>
  d.up_to_date ? `${d.domain}: nothing (up to date: answered from its record)` : `${d.domain}: ${d.rerun.length === 0 ? "nothing" : `${d.rerun.length} (${d.rerun.join(", ")})`}${d.tasks_reused ? ", task records reused" : ""}, ${d.files_written} file(s) written`;

function writeSection(f: Figures, notes: string): void {
  const n = f.noop.median_run;
  const body = [
    START,
    "## Build: from scratch, no-op rebuild, one edit (`bench/build.ts`)",
    "",
    `Command: \`${f.command}\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, the script and its children at \`nice -n 5\`; 1-minute load average ${f.load_average.scratch?.[0]} after the build from scratch, ${f.load_average.noop?.[0]} after the no-op rebuilds, ${f.load_average.edit?.[0]} after the edit rebuild (other jobs shared the 2 cores).`,
    "",
    `Each figure is one child process of the real CLI, \`node bin/synth.js build --sources T/sources --sop T/sop --generated T/generated --json\`, in a fresh temporary copy T of sources/ and sop/ (the ${f.domains.length} sample domains ${f.domains.join(", ")}, deterministic strategies, no model). Wall time from spawn to exit (compile check and module loading included); peak memory by ${f.rss_method}. Stage-cache misses are the build's own count (its \`--json\` result); the entries each build added to T/generated/cache/stages/ are counted per stage (a miss computes the stage and stores one); per domain, the stages run again are read from the progress events.`,
    "",
    "| build | wall | ÷ limit | CPU (user + sys) | peak RSS | stage-cache hits / misses | cache entries added | tasks released |",
    "|---|---|---|---|---|---|---|---|",
    `| from scratch (empty generated/) | **${secs(f.scratch.wall_ms)}** (target < ${f.targets.scratch_ms_max / 1000} s: ${f.met.scratch ? "met" : "missed"}) | ${(f.scratch.wall_ms / f.targets.scratch_ms_max).toFixed(2)} | ${cpuS(f.scratch.cpu_ms)} | ${mib(f.scratch.max_rss_kib)} | ${f.scratch.cache_hits} / ${f.scratch.cache_misses} | ${Object.values(f.scratch.new_cache_entries).reduce((a, b) => a + b, 0)} | ${f.scratch.released} |`,
    `| no-op rebuild (same command again), median of ${f.noop.runs} | **${secs(f.noop.median_ms)}** (target < ${f.targets.noop_ms_max / 1000} s: ${f.met.noop ? "met" : "missed"}) | ${(f.noop.median_ms / f.targets.noop_ms_max).toFixed(2)} | ${cpuS(n.cpu_ms)} | ${mib(n.max_rss_kib)} | ${n.cache_hits} / ${n.cache_misses} | ${entries(n.new_cache_entries)} | ${n.released} |`,
    `| no-op through the graph (up-to-date records removed: every stage from the stage cache) | ${secs(f.graph_noop.wall_ms)} | ${(f.graph_noop.wall_ms / f.targets.noop_ms_max).toFixed(2)} | ${cpuS(f.graph_noop.cpu_ms)} | ${mib(f.graph_noop.max_rss_kib)} | ${f.graph_noop.cache_hits} / ${f.graph_noop.cache_misses} | ${entries(f.graph_noop.new_cache_entries)} | ${f.graph_noop.released} |`,
    `| after one edit (${f.edit.file}) | ${secs(f.edit_rebuild.wall_ms)} | – | ${cpuS(f.edit_rebuild.cpu_ms)} | ${mib(f.edit_rebuild.max_rss_kib)} | ${f.edit_rebuild.cache_hits} / ${f.edit_rebuild.cache_misses} | ${entries(f.edit_rebuild.new_cache_entries)} | ${f.edit_rebuild.released} |`,
    "",
    `No-op rebuild walls: ${f.noop.walls_ms.map(secs).join(", ")}; ${f.met.noop_up_to_date ? "every domain of every no-op run was answered from its up-to-date record (pipeline/build/up-to-date.ts: a key over the build's code, package-lock.json, the settings and every file of sources/<d>/, sop/<d>/ and generated/<d>/; the graph and its libraries are not loaded)" : "some no-op run built a domain (see --json)"}; stage misses in every no-op run: ${f.noop.median_run.cache_misses === 0 && f.met.noop_no_misses ? "0" : "some (see --json)"}. In the same run, start-up (medians of ${f.startup.runs}, interleaved with the builds): \`node -e 0\` ${f.startup.node_e0_ms} ms, \`node bin/synth.js --help\` ${f.startup.help_ms} ms, \`node bin/synth.js build --help\` (the build command's module and its options; the build's libraries load only when a build runs) ${f.startup.build_help_ms} ms; the no-op rebuild is **${f.noop.ratio_to_node}×** \`node -e 0\` and ${f.noop.ratio_to_help}× \`synth --help\`.`,
    "",
    `One edit (the sentence "${f.edit.appended}" appended to ${f.edit.file}): ${f.met.edit ? "only what depends on it ran again (target met)" : "target missed"}. Stages run again, per domain: ${f.edit_rebuild.domains.map(rerunText).join("; ")}. (build_environment's own cache look-ups are not in the progress events: it is counted where the documents or the SOP changed; the ${f.edit_rebuild.cache_misses} stage-cache misses of the run match the ${Object.values(f.edit_rebuild.new_cache_entries).reduce((a, b) => a + b, 0)} entries it added: ${entries(f.edit_rebuild.new_cache_entries)}.)`,
    "",
    `From scratch, the build's own timing table (milliseconds summed over domains and task slots, which overlap): ${Object.entries(f.scratch.stage_ms)
      .map(([s, ms]) => `${s} ${ms}`)
      .join(", ")}. No-op through the graph: ${Object.entries(f.graph_noop.stage_ms)
      .map(([s, ms]) => `${s} ${ms}`)
      .join(", ")}.`,
    ...(notes ? ["", notes] : []),
    END,
  ].join("\n");
  writeBenchmarksSection(START, END, body);
}

/** Hand-written notes kept under the table when the section is rewritten (between the markers below). */
function currentNotes(): string {
  const file = join(ROOT, "BENCHMARKS.md");
  if (!existsSync(file)) return "";
  const text = readFileSync(file, "utf8");
  const m = /<!-- build:notes:start -->[\s\S]*?<!-- build:notes:end -->/.exec(text);
  return m ? m[0] : "";
}

function main(): void {
  const f = measure();
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(f, null, 2));
  } else {
    const table = new Table({ head: ["build", "wall s", "CPU s", "peak RSS MiB", "cache hits/misses", "cache entries added"] });
    table.push(
      ["from scratch", secs(f.scratch.wall_ms), cpuS(f.scratch.cpu_ms), mib(f.scratch.max_rss_kib), `${f.scratch.cache_hits}/${f.scratch.cache_misses}`, Object.values(f.scratch.new_cache_entries).reduce((a, b) => a + b, 0)],
      [`no-op (median of ${f.noop.runs})`, secs(f.noop.median_ms), cpuS(f.noop.median_run.cpu_ms), mib(f.noop.median_run.max_rss_kib), `${f.noop.median_run.cache_hits}/${f.noop.median_run.cache_misses}`, entries(f.noop.median_run.new_cache_entries)],
      ["no-op through the graph", secs(f.graph_noop.wall_ms), cpuS(f.graph_noop.cpu_ms), mib(f.graph_noop.max_rss_kib), `${f.graph_noop.cache_hits}/${f.graph_noop.cache_misses}`, entries(f.graph_noop.new_cache_entries)],
      ["one edit", secs(f.edit_rebuild.wall_ms), cpuS(f.edit_rebuild.cpu_ms), mib(f.edit_rebuild.max_rss_kib), `${f.edit_rebuild.cache_hits}/${f.edit_rebuild.cache_misses}`, entries(f.edit_rebuild.new_cache_entries)],
    );
    console.log(table.toString());
    console.log(`start-up: node -e 0 ${f.startup.node_e0_ms} ms, synth --help ${f.startup.help_ms} ms, synth build --help ${f.startup.build_help_ms} ms; no-op rebuild ${f.noop.ratio_to_node}× node -e 0`);
    console.log(`edit of ${f.edit.file}: ${f.edit_rebuild.domains.map(rerunText).join("; ")}`);
    console.log(`load average (1/5/15 min): ${Object.entries(f.load_average).map(([k, v]) => `${k} ${v.join(" ")}`).join("; ")}`);
  }
  if (process.argv.includes("--write")) writeSection(f, currentNotes());
  reportMissed([
    ...(f.met.scratch ? [] : [`from scratch ${secs(f.scratch.wall_ms)} (target < ${f.targets.scratch_ms_max / 1000} s)`]),
    ...(f.met.noop ? [] : [`no-op rebuild ${secs(f.noop.median_ms)} (target < ${f.targets.noop_ms_max / 1000} s)`]),
    ...(f.met.noop_no_misses ? [] : ["no-op rebuild had stage-cache misses"]),
    ...(f.met.noop_up_to_date ? [] : ["a no-op rebuild built a domain instead of answering from its up-to-date record"]),
    ...(f.met.edit ? [] : ["one edit re-ran more than what depends on it"]),
  ]);
}

main();
