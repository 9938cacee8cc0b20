import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync, type Dirent } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { contentHash, sha256, stableJson } from "../core/canonical-json.js";
import type { FoundryConfig } from "../core/config.js";
import { REPO_ROOT } from "../core/repo-root.js";
import { buildFingerprint } from "./stage-code.js";

/**
 * A finished build's proof that a domain's outputs are current, so that `synth build` can answer an
 * unchanged domain without loading the synthesis graph (LangGraph, LangChain) or running a stage.
 *
 * The key holds everything that can change what a build writes for the domain: the code of the
 * whole build (its import closure), package-lock.json (library versions), the settings (the database
 * URL left out: it says where state lives, not what is built), the folders the build reads and
 * writes, and the content of every file under sources/<d>/, sop/<d>/ and generated/<d>/ — the
 * outputs too, so a deleted or edited output is rebuilt. Any difference is a full build of that
 * domain, served from the stage cache where it can be.
 *
 * Content hashes are reused from the record for files whose stat (size, inode, mtime, ctime in
 * nanoseconds) is the one recorded, the rule git's index and bin/compile.mjs follow: ctime cannot
 * be set by a program, so an edit always shows. A file changed less than a second before the record
 * was written ("racily clean": within the filesystem's timestamp granularity) is always read again.
 */
const FileEntry = z.tuple([z.string().describe("size:inode:mtimeNs:ctimeNs"), z.string().regex(/^[0-9a-f]{64}$/).describe("sha256 of the bytes")]);

export const UpToDateRecord = z
  .object({
    domain: z.string().describe("Domain id."),
    key: z.string().regex(/^[0-9a-f]{64}$/).describe("sha256 of the inputs and outputs listed above, when the build finished."),
    run: z.string().describe("The build run that wrote the outputs."),
    files: z.record(z.string(), FileEntry).describe("Stat and content hash of every file the key covers, by `<folder>:<relative path>`."),
    outcome: z.unknown().describe("That run's outcome for this domain, as `synth build` prints it (slim: see slimOutcome)."),
  })
  .strict();
export type UpToDateRecord = z.infer<typeof UpToDateRecord>;

export interface BuildPaths {
  sources: string;
  sop: string;
  generated: string;
}

/** Where a domain's record lives: `<generated>/runs/up-to-date/<domain>.json` (outside the domain's outputs it hashes). */
export function upToDateFile(generated: string, domain: string): string {
  return join(generated, "runs", "up-to-date", `${domain}.json`);
}

type Index = Record<string, z.infer<typeof FileEntry>>;

const RACY_NS = 1_000_000_000n;

/** `<label>:<relative path>` → [stat, sha256] of every file under `dir`, hashes reused from `known` where the stat is unchanged and not racy. */
function indexTree(label: string, dir: string, known: Index, racyFrom: bigint | null, out: Index): void {
  if (!existsSync(dir)) return;
  const files = (readdirSync(dir, { recursive: true, withFileTypes: true }) as Dirent[]).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  for (const file of files) {
    const rel = `${label}:${file.slice(dir.length + 1).split("\\").join("/")}`;
    const s = statSync(file, { bigint: true });
    const stat = `${s.size}:${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
    const prior = known[rel];
    const reuse = prior !== undefined && prior[0] === stat && racyFrom !== null && s.ctimeNs < racyFrom && s.mtimeNs < racyFrom;
    out[rel] = reuse ? prior : [stat, sha256(readFileSync(file))];
  }
}

/** The up-to-date key of one domain for these settings and folders as the files are now, and the file index it was computed from. */
export function upToDateKey(domain: string, config: FoundryConfig, paths: BuildPaths, known: { files: Index; writtenNs: bigint } | null = null): { key: string; files: Index } {
  const files: Index = {};
  const racyFrom = known ? known.writtenNs - RACY_NS : null;
  indexTree("sources", join(paths.sources, domain), known?.files ?? {}, racyFrom, files);
  indexTree("sop", join(paths.sop, domain), known?.files ?? {}, racyFrom, files);
  indexTree("generated", join(paths.generated, domain), known?.files ?? {}, racyFrom, files);
  const lock = join(REPO_ROOT, "package-lock.json");
  const key = contentHash({
    code: buildFingerprint(),
    lock: existsSync(lock) ? sha256(readFileSync(lock)) : null,
    settings: { ...config, database_url: null },
    paths,
    files: Object.keys(files)
      .sort()
      .map((f) => [f, (files[f] as [string, string])[1]]),
  });
  return { key, files };
}

/** The domain's record when it holds for the files as they are now, else null (no record, another key, or an unreadable file). */
export function readUpToDate(domain: string, config: FoundryConfig, paths: BuildPaths): UpToDateRecord | null {
  const file = upToDateFile(paths.generated, domain);
  if (!existsSync(file)) return null;
  let record: UpToDateRecord;
  try {
    const parsed = UpToDateRecord.safeParse(JSON.parse(readFileSync(file, "utf8")));
    if (!parsed.success || parsed.data.domain !== domain) return null;
    record = parsed.data;
  } catch {
    // A torn or hand-edited record only costs a build.
    return null;
  }
  const { key } = upToDateKey(domain, config, paths, { files: record.files, writtenNs: statSync(file, { bigint: true }).ctimeNs });
  return key === record.key ? record : null;
}

/** Record that the domain's outputs are current for the files as they are now (written atomically). */
export function writeUpToDate(domain: string, config: FoundryConfig, paths: BuildPaths, run: string, outcome: unknown): void {
  const file = upToDateFile(paths.generated, domain);
  const { key, files } = upToDateKey(domain, config, paths);
  mkdirSync(join(paths.generated, "runs", "up-to-date"), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, stableJson(UpToDateRecord.parse({ domain, key, run, files, outcome })));
  renameSync(tmp, file);
}
