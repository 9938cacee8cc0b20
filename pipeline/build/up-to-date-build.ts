import type { FoundryConfig } from "../core/config.js";
import { modelFailureSummary } from "../llm/failure-reason.js";
import { listDomainDirs } from "../sources/domain-dirs.js";
import type { BuildOutcome, DomainOutcome } from "./run-build.js";
import type { TaskRecord } from "../graph/state.js";
import { readUpToDate, writeUpToDate, type BuildPaths } from "./up-to-date.js";

/** What the build's printout reads of a task record (its tasks, traces and gate details stay in generated/<d>/). */
export type PrintedRecord = Pick<TaskRecord, "slot" | "id" | "status" | "reason"> & { validation: { mutants: Array<{ killed: boolean }> } | null };
/** A domain's outcome as `synth build` prints it. */
export type PrintedDomain = Omit<DomainOutcome, "records"> & { records: PrintedRecord[] };

/** The part of a domain's outcome the printout reads: what an up-to-date record keeps. */
export function slimOutcome(d: PrintedDomain): PrintedDomain {
  return {
    ...d,
    records: d.records.map((r) => ({ slot: r.slot, id: r.id, status: r.status, reason: r.reason, validation: r.validation ? { mutants: r.validation.mutants.map((m) => ({ killed: m.killed })) } : null })),
  };
}

/** Every item a domain dropped, slots and stage items, with the reason a model failure is recognised by. */
export function domainDrops(d: PrintedDomain): Array<{ domain: string; item: string; reason: string | null }> {
  return [
    ...d.records.filter((r) => r.status === "dropped").map((r) => ({ domain: d.domain, item: r.id ?? `slot-${r.slot + 1}`, reason: r.reason })),
    ...d.stages.flatMap((s) => s.dropped.map((x) => ({ domain: d.domain, item: x.item, reason: /^SOP_LLM_FAILED/.test(x.reason) ? `model failure (extraction) in stage ${s.stage}: ${x.reason}` : x.reason }))),
  ];
}

/** A domain answered from its up-to-date record: the run that wrote its outputs, and that run's outcome. */
export interface ServedDomain {
  domain: string;
  run: string;
  outcome: PrintedDomain;
}

/** What `synth build` prints: the outcome of the domains built now and of those that were up to date. */
export type CliBuildOutcome = Omit<BuildOutcome, "run" | "domains"> & {
  domains: PrintedDomain[];
  /** The run that built something now; null when every domain was up to date. */
  run: string | null;
  up_to_date: Array<{ domain: string; run: string }>;
};

/**
 * Split the requested domains (default: every domain under `paths.sources`) into those whose
 * up-to-date record holds and those to build. Null when there is no domain to split (the build
 * itself reports that).
 */
export function upToDateDomains(config: FoundryConfig, paths: BuildPaths, domains?: readonly string[]): { order: string[]; served: ServedDomain[]; stale: string[] } | null {
  const order = domains && domains.length > 0 ? [...domains] : listDomainDirs(paths.sources).map((d) => d.split(/[/\\]/).pop() as string);
  if (order.length === 0) return null;
  const served: ServedDomain[] = [];
  const stale: string[] = [];
  for (const domain of order) {
    const record = readUpToDate(domain, config, paths);
    if (record) served.push({ domain, run: record.run, outcome: record.outcome as PrintedDomain });
    else stale.push(domain);
  }
  return { order, served, stale };
}

/**
 * After a build: record each finished domain as up to date with the files it left. A domain paused
 * for review, or with items lost to a model failure, is not recorded: building it again must retry.
 */
export function recordUpToDate(config: FoundryConfig, paths: BuildPaths, outcome: BuildOutcome): void {
  for (const d of outcome.domains) {
    if (d.paused) continue;
    if (modelFailureSummary(domainDrops(d)).length > 0) continue;
    writeUpToDate(d.domain, config, paths, outcome.run, slimOutcome(d));
  }
}

/** The domains in the order asked, built now or served from their records. */
export function mergeOutcomes(order: readonly string[], built: BuildOutcome | null, served: readonly ServedDomain[]): CliBuildOutcome {
  const now = new Map<string, PrintedDomain>((built?.domains ?? []).map((d) => [d.domain, d]));
  const kept = new Map(served.map((s) => [s.domain, s.outcome]));
  const domains = order.length > 0 ? order.map((d) => now.get(d) ?? kept.get(d)).filter((d): d is PrintedDomain => d !== undefined) : (built?.domains ?? []);
  return {
    run: built?.run ?? null,
    domains,
    cache: built?.cache ?? { hits: 0, misses: 0 },
    stats: built?.stats ?? [],
    up_to_date: served.map((s) => ({ domain: s.domain, run: s.run })),
  };
}
