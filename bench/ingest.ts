// Ingestion throughput: 800 generated ~2 KB procedure documents with a table, ingested by
// pipeline/sources/ingest.ts (parse + outline + content-hash cache) against a bare remark parse
// with the same plugins of the same texts, in the same run. Run: `node --import tsx bench/ingest.ts`
// (`--write` rewrites the section of BENCHMARKS.md; `--docs N`, `--rounds N` change the size;
// `--smoke`: 20 documents, one round, targets not judged).
import { writeBenchmarksSection } from "./benchmarks-section.js";
import { mkdtempSync, readFileSync, rmSync, readdirSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import Table from "cli-table3";
import { createMarkdownParser } from "../pipeline/sources/markdown-parser.js";
import { IngestCache, ingestDocuments, ingestDocumentsSync } from "../pipeline/sources/ingest.js";
import { writeCorpus } from "./ingest-corpus.js";
import { reportMissed, size } from "./lib/smoke.js";
import { arg, median } from "./lib/measure.js";

const START = "<!-- ingest:start -->";
const END = "<!-- ingest:end -->";



/** Wall time and CPU time (all threads of the process) of a call, in ms. */
async function timed(fn: () => unknown): Promise<{ wall: number; cpu: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  await fn();
  const wall = performance.now() - t;
  const u = process.cpuUsage(c);
  return { wall, cpu: (u.user + u.system) / 1000 };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const round3 = (x: number) => Math.round(x * 1000) / 1000;

async function measure() {
  const docsCount = arg("--docs", size(800, 20));
  const rounds = arg("--rounds", size(3, 1));
  const dir = mkdtempSync(join(tmpdir(), "foundry-bench-ingest-"));
  try {
    const corpus = writeCorpus(dir, docsCount);
    // Read from disk as ingestion does; the texts are then the input of every variant.
    const docs = corpus.map((c) => ({ file: c.file, text: readFileSync(c.file, "utf8") }));
    const bytes = docs.reduce((n, d) => n + Buffer.byteLength(d.text), 0);
    const parser = createMarkdownParser();

    // Warm-up of both code paths (JIT), on documents that are not measured again from the cache.
    const warm = docs.slice(0, size(60, 5)).map((d) => ({ file: d.file, text: `${d.text}\nWarm-up.\n` }));
    for (const d of warm) parser.parse(d.text);
    ingestDocumentsSync(warm);

    const bare: Array<{ wall: number; cpu: number }> = [];
    const sync: Array<{ wall: number; cpu: number }> = [];
    const parallel: Array<{ wall: number; cpu: number }> = [];
    let cacheDir = "";
    for (let r = 0; r < rounds; r++) {
      // Interleaved, so that background load hits every variant alike.
      bare.push(
        await timed(() => {
          for (const d of docs) parser.parse(d.text);
        }),
      );
      sync.push(await timed(() => ingestDocumentsSync(docs)));
      cacheDir = join(dir, `cache-${r}`);
      parallel.push(await timed(() => ingestDocuments(docs, { cache: new IngestCache({ dir: cacheDir }), parallel: true })));
    }
    // Unchanged documents again: the same process (memory cache), and a new process (disk cache only).
    const memCache = new IngestCache({ dir: cacheDir });
    await ingestDocuments(docs, { cache: memCache, parallel: false });
    const again = (await timed(() => ingestDocuments(docs, { cache: memCache }))).wall;
    const fromDisk = (await timed(() => ingestDocuments(docs, { cache: new IngestCache({ dir: cacheDir }) }))).wall;
    const diskFiles = readdirSync(cacheDir).length;
    const bareMs = median(bare.map((x) => x.wall));
    const syncMs = median(sync.map((x) => x.wall));
    const parMs = median(parallel.map((x) => x.wall));
    const mb = bytes / 1024 / 1024;
    return {
      command: "node --import tsx bench/ingest.ts --write",
      node: process.version,
      cpu: `${cpus()[0]?.model.trim() ?? "unknown CPU"} × ${availableParallelism()}`,
      load_average_1m: round1(loadavg()[0] ?? 0),
      documents: docsCount,
      rounds,
      corpus_bytes: bytes,
      mean_document_bytes: Math.round(bytes / docsCount),
      bare_parse_ms: round1(bareMs),
      ingest_one_thread_ms: round1(syncMs),
      ingest_parallel_ms: round1(parMs),
      workers: Math.max(1, availableParallelism() - 1),
      bare_docs_per_s: Math.round(docsCount / (bareMs / 1000)),
      one_thread_docs_per_s: Math.round(docsCount / (syncMs / 1000)),
      parallel_docs_per_s: Math.round(docsCount / (parMs / 1000)),
      bare_mb_per_s: round3(mb / (bareMs / 1000)),
      one_thread_mb_per_s: round3(mb / (syncMs / 1000)),
      parallel_mb_per_s: round3(mb / (parMs / 1000)),
      bare_cpu_ms: round1(median(bare.map((x) => x.cpu))),
      ingest_one_thread_cpu_ms: round1(median(sync.map((x) => x.cpu))),
      ingest_parallel_cpu_ms: round1(median(parallel.map((x) => x.cpu))),
      ratio_one_thread_to_bare: round3(median(sync.map((x) => x.cpu)) / median(bare.map((x) => x.cpu))),
      ratio_parallel_to_bare: round3(parMs / bareMs),
      reingest_memory_ms: round1(again),
      reingest_disk_ms: round1(fromDisk),
      disk_cache_files: diskFiles,
      targets: { ratio_max: 1.3, parallel_ms_max: 5000 },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

type Figures = Awaited<ReturnType<typeof measure>>;

function writeSection(f: Figures): void {
  const body = [
    START,
    "## Sources: document ingestion (`bench/ingest.ts`)",
    "",
    `Command: \`${f.command}\` (\`--write\` rewrites this section). Node ${f.node}, ${f.cpu}; load average ${f.load_average_1m} during the run (other jobs shared the 2 cores).`,
    "",
    `Corpus: ${f.documents} generated procedure documents (bench/ingest-corpus.ts), ${f.mean_document_bytes} bytes on average (${(f.corpus_bytes / 1024 / 1024).toFixed(2)} MB): front matter, three anchored clauses, a six-step procedure with a nested \`If\` decision, a four-row table, an any-order sentence. Bare = \`unified().use(remarkParse).use(remarkFrontmatter).use(remarkGfm).parse()\` of the same texts, one thread. Ingestion = content hash + parse + outline (sections, lists, tables, anchors, inline code, file lines) + cache entry. Medians of ${f.rounds} interleaved rounds after a warm-up. The overhead ratio compares median CPU times (ingestion ÷ bare parse), which background load disturbs less than wall time.`,
    "",
    "| variant | wall ms | CPU ms | docs/s | MB/s | vs bare |",
    "|---|---|---|---|---|---|",
    `| bare remark parse, 1 thread | ${f.bare_parse_ms} | ${f.bare_cpu_ms} | ${f.bare_docs_per_s} | ${f.bare_mb_per_s} | 1.000 |`,
    `| ingestion, 1 thread (\`ingestDocumentsSync\`) | ${f.ingest_one_thread_ms} | ${f.ingest_one_thread_cpu_ms} | ${f.one_thread_docs_per_s} | ${f.one_thread_mb_per_s} | **${f.ratio_one_thread_to_bare}×** CPU (target ≤ ${f.targets.ratio_max}) |`,
    `| ingestion, calling thread + ${f.workers} worker (\`ingestDocuments\`, disk cache written) | **${f.ingest_parallel_ms}** (target < ${f.targets.parallel_ms_max}) | ${f.ingest_parallel_cpu_ms} | ${f.parallel_docs_per_s} | ${f.parallel_mb_per_s} | ${f.ratio_parallel_to_bare}× wall |`,
    `| re-ingest unchanged, memory cache | ${f.reingest_memory_ms} | | | | |`,
    `| re-ingest unchanged, new process (disk cache, ${f.disk_cache_files} files) | ${f.reingest_disk_ms} | | | | |`,
    "",
    `The parallel figure includes starting the worker thread (0.4–0.7 s to load tsx and remark in it) and the worker's cold JIT; the calling thread parses from the first millisecond, so the start-up overlaps. Those account for its extra ${round1(f.ingest_parallel_cpu_ms - f.ingest_one_thread_cpu_ms)} ms of CPU over the one-thread run. On this 2-vCPU machine the gain over one thread is small: a one-thread Node process already keeps the second core partly busy with V8's background compiler and GC threads (\`time\` shows about 1.3 CPU-seconds per wall second for it), and other sessions' jobs shared the cores (load ${f.load_average_1m}). Re-ingesting costs the sha256 of each text plus a map lookup (or a small JSON read per document from the disk cache).`,
    END,
  ].join("\n");
  writeBenchmarksSection(START, END, body);
}

async function main(): Promise<void> {
  const f = await measure();
  const table = new Table({ head: ["variant", "wall ms", "CPU ms", "docs/s", "MB/s", "vs bare"] });
  table.push(
    ["bare remark parse, 1 thread", f.bare_parse_ms, f.bare_cpu_ms, f.bare_docs_per_s, f.bare_mb_per_s, "1.000"],
    ["ingestion, 1 thread", f.ingest_one_thread_ms, f.ingest_one_thread_cpu_ms, f.one_thread_docs_per_s, f.one_thread_mb_per_s, `${f.ratio_one_thread_to_bare} (CPU)`],
    [`ingestion, parallel (1 + ${f.workers} worker)`, f.ingest_parallel_ms, f.ingest_parallel_cpu_ms, f.parallel_docs_per_s, f.parallel_mb_per_s, `${f.ratio_parallel_to_bare} (wall)`],
    ["re-ingest unchanged (memory)", f.reingest_memory_ms, "", "", "", ""],
    ["re-ingest unchanged (disk)", f.reingest_disk_ms, "", "", "", ""],
  );
  console.log(table.toString());
  console.log(JSON.stringify(f, null, 2));
  if (process.argv.includes("--write")) writeSection(f);
  reportMissed([
    ...(f.ratio_one_thread_to_bare <= f.targets.ratio_max ? [] : [`ingestion ${f.ratio_one_thread_to_bare}× bare parse, CPU (target ≤ ${f.targets.ratio_max})`]),
    ...(f.ingest_parallel_ms < f.targets.parallel_ms_max ? [] : [`parallel ingestion ${f.ingest_parallel_ms} ms (target < ${f.targets.parallel_ms_max})`]),
  ]);
}

await main();
