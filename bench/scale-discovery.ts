// Discovery-tool latency over the synthetic domain's ~600 operations: `list_capabilities` with a
// filter (the search an agent runs to find a catalog capability), `list_capabilities` paging without
// a filter, and `describe_capability`, each called through the episode's tool path
// (Episode.execute: the tool's zod arguments, then pipeline/world/discovery-tools.ts), in this
// process, on the world of bench/lib/synthetic-domain.ts (no build needed: world.yaml is loaded,
// compiled and its initial state built in memory). The queries are a seeded set: exact capability
// names, "<area> <metric>" pairs, single words, and words that match nothing. Each query is timed
// over several repetitions (sub-millisecond calls); the median and p90 are over queries.
// Run: `nice -n 5 node --import tsx bench/scale-discovery.ts` (`--write` rewrites this section of
// BENCHMARKS.md, `--json` prints the figures, `--queries N` the number of queries per kind, default
// 200, `--reps N` the repetitions per query, default 20). `--smoke`: the smoke-size domain, 10
// queries per kind, 3 repetitions. The one target is correctness: every exact-name query finds its
// capability and every nonsense query finds nothing; latency has no target in the issue, and none is invented here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Table from "cli-table3";
import { loadWorld } from "../pipeline/world/load-world.js";
import { compileWorld } from "../pipeline/world/compile-world.js";
import { buildInitialState } from "../pipeline/world/build-state.js";
import { Episode } from "../pipeline/world/episode.js";
import { RandomStream } from "../pipeline/core/random.js";
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { SMOKE, reportMissed, size } from "./lib/smoke.js";
import { arg, median, quantile } from "./lib/measure.js";
import { writeSyntheticDomain } from "./lib/synthetic-domain.js";
import { SCALE_DOMAIN, SMOKE_DOMAIN, SCALE_DOMAIN_ID } from "./lib/scale-domain.js";
import { load, machine } from "./lib/timed-child.js";

const START = "<!-- scale-discovery:start -->";
const END = "<!-- scale-discovery:end -->";
const round3 = (x: number) => Math.round(x * 1000) / 1000;

interface Query {
  kind: "search" | "page" | "describe";
  args: Record<string, unknown>;
  /** Correctness expectation: the exact name must be found, nonsense must find nothing. */
  expect?: { name: string } | "none";
}

/** The seeded query set over the world's agent-side operation names. */
function queries(names: readonly string[], perKind: number, seed: number): Query[] {
  const r = new RandomStream(seed).fork("discovery-queries");
  const out: Query[] = [];
  for (let i = 0; i < perKind; i++) {
    const name = r.pick(names);
    const words = name.split("_");
    // A quarter each: the exact name, two words of it, one word of it, words no operation has.
    const which = i % 4;
    if (which === 0) out.push({ kind: "search", args: { filter: name }, expect: { name } });
    else if (which === 1) out.push({ kind: "search", args: { filter: `${words[1] ?? words[0]} ${words[2] ?? ""}`.trim() } });
    else if (which === 2) out.push({ kind: "search", args: { filter: r.pick(words) } });
    else out.push({ kind: "search", args: { filter: `zebra${r.int(1, 999)} quokka` }, expect: "none" });
    out.push({ kind: "page", args: { offset: r.int(0, Math.max(0, names.length - 1)) } });
    out.push({ kind: "describe", args: { name: r.pick(names) } });
  }
  return out;
}

const TOOL = { search: "list_capabilities", page: "list_capabilities", describe: "describe_capability" } as const;

function measure() {
  const perKind = arg("--queries", size(200, 10));
  const reps = arg("--reps", size(20, 3));
  const opts = SMOKE ? SMOKE_DOMAIN : SCALE_DOMAIN;
  const dir = mkdtempSync(join(tmpdir(), "foundry-bench-discovery-"));
  try {
    const domain = writeSyntheticDomain(dir, { ...opts, id: SCALE_DOMAIN_ID });
    const world = loadWorld(join(domain, "world.yaml"));
    const compiled = compileWorld(world);
    const initial = buildInitialState(world, { seed: opts.seed });
    const names = world.operations.filter((o) => o.side === "agent").map((o) => o.name);
    const episode = Episode.open(initial, compiled, { isolation: "reuse" });
    try {
      const qs = queries(names, perKind, opts.seed);
      const wrong: string[] = [];
      const call = (q: Query) => episode.execute({ name: TOOL[q.kind], args: q.args, actor: "agent" });
      // Warm-up (JIT, the prepared paths), and the correctness check on each query's first answer.
      for (const q of qs) {
        const out = call(q);
        if (out.status !== "executed") {
          wrong.push(`${TOOL[q.kind]} ${JSON.stringify(q.args)} failed: ${JSON.stringify(out.result)}`);
          continue;
        }
        const found = out.result as { total: number; capabilities: Array<{ name: string }> };
        if (q.expect === "none" && found.total !== 0) wrong.push(`${JSON.stringify(q.args)} matched ${found.total}`);
        if (q.expect && q.expect !== "none" && !found.capabilities.some((c) => c.name === (q.expect as { name: string }).name)) wrong.push(`${JSON.stringify(q.args)} did not find ${q.expect.name}`);
      }
      const times: Record<Query["kind"], number[]> = { search: [], page: [], describe: [] };
      const matches: number[] = [];
      for (const q of qs) {
        const t = performance.now();
        for (let i = 0; i < reps; i++) call(q);
        times[q.kind].push((performance.now() - t) / reps);
        if (q.kind === "search") matches.push((call(q).result as { total: number }).total);
      }
      const stats = (xs: number[]) => ({ queries: xs.length, median_ms: round3(median(xs)), p90_ms: round3(quantile(xs, 0.9)), max_ms: round3(Math.max(...xs)) });
      return {
        command: "nice -n 5 node --import tsx bench/scale-discovery.ts --write",
        ...machine(),
        load_average: load(),
        domain: { documents: opts.documents, operations: opts.operations, agent_operations: names.length, catalog_capabilities: opts.operations - opts.lines * 6, lines: opts.lines, seed: opts.seed },
        reps,
        search: stats(times.search),
        page: stats(times.page),
        describe: stats(times.describe),
        search_matches: { median: median(matches), max: Math.max(...matches) },
        wrong,
      };
    } finally {
      episode.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = ReturnType<typeof measure>;

function writeSection(f: Figures): void {
  const row = (what: string, s: Figures["search"]) => `| ${what} | ${s.queries} | **${s.median_ms} ms** | **${s.p90_ms} ms** | ${s.max_ms} ms |`;
  writeBenchmarksSection(
    START,
    END,
    [
      START,
      "## Scale: discovery-tool latency over ~600 operations (`bench/scale-discovery.ts`)",
      "",
      `Command: \`${f.command}\` (\`--write\` rewrites this section; \`--json\` prints the figures). Node ${f.node}, ${f.cpu}, at \`nice -n 5\`; 1/5/15-minute load average ${f.load_average.join(" / ")} at the end of the run (other jobs shared the 2 cores).`,
      "",
      `World: the synthetic domain of bench/lib/synthetic-domain.ts (seed ${f.domain.seed}), ${f.domain.operations} operations, ${f.domain.agent_operations} of them agent-side (what the discovery tools list), ${f.domain.catalog_capabilities} catalog capabilities that no procedure names, over ${f.domain.lines} business lines. Each query is a call through the episode's tool path (\`Episode.execute\`: the tool's zod arguments, then pipeline/world/discovery-tools.ts), in this process; each timed as the mean of ${f.reps} repetitions, median and p90 over the queries. Search queries are seeded: a quarter each exact capability names, two words of a name, one word, and words no operation has; a search matched ${f.search_matches.median} operations at the median, ${f.search_matches.max} at most (a page holds 50).`,
      "",
      "| call | queries | median | p90 | max |",
      "|---|---|---|---|---|",
      row("`list_capabilities` with a filter (search)", f.search),
      row("`list_capabilities` without a filter, at an offset (paging)", f.page),
      row("`describe_capability`", f.describe),
      "",
      `Correctness (the one target: the issue sets no latency limit, so no ratio to a limit is given): ${f.wrong.length === 0 ? "every exact-name query found its capability and every nonsense query found nothing (met)" : `missed: ${f.wrong.slice(0, 5).join("; ")}`}.`,
      END,
    ].join("\n"),
  );
}

function main(): void {
  const f = measure();
  if (process.argv.includes("--json")) console.log(JSON.stringify(f, null, 2));
  else {
    const table = new Table({ head: ["call", "queries", "median ms", "p90 ms", "max ms"] });
    table.push(["list_capabilities (search)", f.search.queries, f.search.median_ms, f.search.p90_ms, f.search.max_ms], ["list_capabilities (page)", f.page.queries, f.page.median_ms, f.page.p90_ms, f.page.max_ms], ["describe_capability", f.describe.queries, f.describe.median_ms, f.describe.p90_ms, f.describe.max_ms]);
    console.log(table.toString());
    console.log(`${f.domain.agent_operations} agent-side operations (${f.domain.catalog_capabilities} catalog capabilities); ${f.reps} repetitions per query; load average ${f.load_average.join(" ")}`);
  }
  if (process.argv.includes("--write")) writeSection(f);
  reportMissed(f.wrong.length === 0 ? [] : [`discovery answered ${f.wrong.length} queries wrongly: ${f.wrong.slice(0, 3).join("; ")}`]);
}

main();
