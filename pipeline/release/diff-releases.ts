import { canonicalJson } from "../core/canonical-json.js";
import type { AcceptanceCheck, CheckGroup, Task, Trace } from "../schemas/index.js";
import { documentKey } from "../../validation/audit/knowledge-document.js";
import type { FileFailure } from "../../validation/audit/verify-integrity.js";
import { loadRelease, type LoadedRelease } from "./read-release.js";
import { omit, valueDiff, type ValueChange } from "./value-diff.js";

export interface ReleaseRef {
  name: string;
  version: string;
  root_hash: string;
}

/** One golden-trace event that differs, by position (1-based event index). */
export interface EventDiff {
  index: number;
  change: "added" | "removed" | "changed";
  /** Event name (operation, tool or event id) in B, or in A when removed. */
  name: string;
  /** Field-level differences of a changed event. */
  changes: ValueChange[];
}

export interface GoldenDiff {
  /** Differences of trace-level fields (hashes, clock, seed). */
  trace: ValueChange[];
  events: EventDiff[];
}

export interface TaskChange {
  domain: string;
  task: string;
  /** Differences of the task apart from its checks (those are listed under `checks`). */
  fields: ValueChange[];
  checks: { added: string[]; removed: string[]; changed: string[] };
  /** Null when the golden trace is the same. */
  golden: GoldenDiff | null;
}

export interface CheckRef {
  domain: string;
  task: string;
  check: string;
  group: CheckGroup;
}

export interface ReleaseDiff {
  a: ReleaseRef;
  b: ReleaseRef;
  /** Same root hash: byte-identical content. */
  identical: boolean;
  files: { added: string[]; removed: string[]; changed: string[] };
  tasks: { added: Array<{ domain: string; task: string }>; removed: Array<{ domain: string; task: string }>; changed: TaskChange[] };
  /** `domain/id@version`. */
  documents: { added: string[]; removed: string[]; changed: string[] };
  checks: { added: CheckRef[]; removed: CheckRef[]; changed: Array<CheckRef & { changes: ValueChange[] }> };
  /** What could not be read or verified in either release. */
  warnings: Array<FileFailure & { release: "a" | "b" }>;
}

const GROUPS: readonly CheckGroup[] = ["goal", "process", "protection"];

interface CheckEntry {
  ref: CheckRef;
  def: AcceptanceCheck;
}

function same(x: unknown, y: unknown): boolean {
  return canonicalJson(x) === canonicalJson(y);
}

function keyed<T>(entries: Array<[string, T]>): Map<string, T> {
  return new Map(entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)));
}

/** Added, removed and common keys of two maps, each sorted. */
function split<T>(a: Map<string, T>, b: Map<string, T>): { added: string[]; removed: string[]; common: string[] } {
  return {
    added: [...b.keys()].filter((k) => !a.has(k)).sort(),
    removed: [...a.keys()].filter((k) => !b.has(k)).sort(),
    common: [...a.keys()].filter((k) => b.has(k)).sort(),
  };
}

function tasksOf(r: LoadedRelease): Map<string, { domain: string; task: Task; golden: Trace | undefined }> {
  return keyed(r.domains.flatMap((d) => d.tasks.map((t): [string, { domain: string; task: Task; golden: Trace | undefined }] => [`${d.id}/${t.id}`, { domain: d.id, task: t, golden: d.golden.get(t.id) }])));
}

function checksOf(task: Task): Map<string, { check: AcceptanceCheck; group: CheckGroup }> {
  return keyed(GROUPS.flatMap((g) => task.checks[g].map((c): [string, { check: AcceptanceCheck; group: CheckGroup }] => [c.id, { check: c, group: g }])));
}

/** Events of two golden traces that differ, compared position by position. */
export function diffGolden(a: Trace, b: Trace): GoldenDiff {
  const events: EventDiff[] = [];
  const n = Math.max(a.events.length, b.events.length);
  for (let i = 0; i < n; i++) {
    const x = a.events[i];
    const y = b.events[i];
    if (x && y) {
      const changes = valueDiff(x as unknown as Record<string, unknown>, y as unknown as Record<string, unknown>);
      if (changes.length > 0) events.push({ index: i + 1, change: "changed", name: y.name, changes });
    } else if (y) events.push({ index: i + 1, change: "added", name: y.name, changes: [] });
    else if (x) events.push({ index: i + 1, change: "removed", name: x.name, changes: [] });
  }
  return { trace: valueDiff(omit(a, "events"), omit(b, "events")), events };
}

function diffTask(domain: string, a: Task, b: Task, ga: Trace | undefined, gb: Trace | undefined): TaskChange | null {
  const fields = valueDiff(omit(a, "checks"), omit(b, "checks"));
  const ca = checksOf(a);
  const cb = checksOf(b);
  const s = split(ca, cb);
  const changedChecks = s.common.filter((id) => !same(ca.get(id), cb.get(id)));
  const golden = ga && gb ? (same(ga, gb) ? null : diffGolden(ga, gb)) : ga || gb ? diffGolden(ga ?? emptyTrace(gb as Trace), gb ?? emptyTrace(ga as Trace)) : null;
  if (fields.length === 0 && s.added.length === 0 && s.removed.length === 0 && changedChecks.length === 0 && !golden) return null;
  return { domain, task: a.id, fields, checks: { added: s.added, removed: s.removed, changed: changedChecks }, golden };
}

function emptyTrace(like: Trace): Trace {
  return { ...like, events: [] };
}

/** Compare two releases: files, tasks (with their golden events), documents and checks added, removed and changed. */
export function diffReleases(aDir: string, bDir: string): ReleaseDiff {
  const a = loadRelease(aDir);
  const b = loadRelease(bDir);
  const fa = new Map(Object.entries(a.manifest.files));
  const fb = new Map(Object.entries(b.manifest.files));
  const files = split(fa, fb);

  const ta = tasksOf(a);
  const tb = tasksOf(b);
  const tasks = split(ta, tb);
  const changed: TaskChange[] = [];
  for (const key of tasks.common) {
    const x = ta.get(key)!;
    const y = tb.get(key)!;
    const c = diffTask(x.domain, x.task, y.task, x.golden, y.golden);
    if (c) changed.push(c);
  }

  const docs = (r: LoadedRelease) => keyed(r.domains.flatMap((d) => d.documents.map((doc): [string, unknown] => [`${d.id}/${documentKey(doc)}`, doc])));
  const da = docs(a);
  const db = docs(b);
  const documents = split(da, db);

  const checks = (r: Map<string, { domain: string; task: Task }>) =>
    keyed([...r.values()].flatMap(({ domain, task }) => [...checksOf(task)].map(([id, c]): [string, CheckEntry] => [`${domain}/${task.id}/${id}`, { ref: { domain, task: task.id, check: id, group: c.group }, def: c.check }])));
  const ka = checks(ta);
  const kb = checks(tb);
  const ks = split(ka, kb);

  return {
    a: { name: a.manifest.name, version: a.manifest.version, root_hash: a.manifest.root_hash },
    b: { name: b.manifest.name, version: b.manifest.version, root_hash: b.manifest.root_hash },
    identical: a.manifest.root_hash === b.manifest.root_hash,
    files: { added: files.added, removed: files.removed, changed: files.common.filter((f) => fa.get(f) !== fb.get(f)) },
    tasks: {
      added: tasks.added.map((k) => ({ domain: tb.get(k)!.domain, task: tb.get(k)!.task.id })),
      removed: tasks.removed.map((k) => ({ domain: ta.get(k)!.domain, task: ta.get(k)!.task.id })),
      changed,
    },
    documents: { added: documents.added, removed: documents.removed, changed: documents.common.filter((k) => !same(da.get(k), db.get(k))) },
    checks: {
      added: ks.added.map((k) => kb.get(k)!.ref),
      removed: ks.removed.map((k) => ka.get(k)!.ref),
      changed: ks.common
        .map((k) => ({ x: ka.get(k)!, y: kb.get(k)! }))
        .filter(({ x, y }) => !same(x, y))
        .map(({ x, y }) => ({ ...y.ref, changes: valueDiff(x.def as unknown as Record<string, unknown>, y.def as unknown as Record<string, unknown>) })),
    },
    warnings: [...a.warnings.map((w) => ({ ...w, release: "a" as const })), ...b.warnings.map((w) => ({ ...w, release: "b" as const }))],
  };
}
