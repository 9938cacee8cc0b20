import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Trace, type ValidationReport } from "../schemas/index.js";
import { horizon, horizonFigures, qualityFigures, type HorizonFigures } from "./quality-figures.js";

/** The demo summary's honest figures for one domain, from its validation.json and golden traces. */
export interface DemoFigures {
  /** Violation traces over every generated task (dropped ones included), before the release filter. */
  kill_rate_all: { killed: number; total: number };
  /** `task: operator → what happened` for each mutant that survived, or that a repair answered. */
  survivors: string[];
  /** Probe → `solved/runs` over the released tasks, measured. */
  probe_solve_rate: Record<string, string>;
  /** Agent events per released golden trace; null when none could be read. */
  horizon: HorizonFigures | null;
}

/** Figures of one domain's build records: `report` and the golden traces under `generatedDomainDir/golden/`. */
export function demoFigures(report: ValidationReport, generatedDomainDir: string): DemoFigures {
  const q = qualityFigures(report);
  const horizons = report.tasks
    .filter((t) => t.status === "released")
    .map((t) => join(generatedDomainDir, "golden", `${t.task}.json`))
    .filter((f) => existsSync(f))
    .map((f) => horizon(Trace.parse(JSON.parse(readFileSync(f, "utf8")))));
  return {
    kill_rate_all: q.mutants,
    survivors: q.survivors.map((s) => `${s.task}: ${s.operator} → ${s.outcome}`),
    probe_solve_rate: Object.fromEntries(Object.keys(q.probes).sort().map((p) => [p, `${q.probes[p]!.solved}/${q.probes[p]!.runs}`])),
    horizon: horizonFigures(horizons),
  };
}

/** `median 21 (q 8–40, max 55, ≥40: 2/5)`, or `-`. */
export function horizonText(h: HorizonFigures | null): string {
  return h ? `median ${h.median} (q ${h.q1}–${h.q3}, max ${h.max}, ≥40: ${h.atLeast40}/${h.tasks})` : "-";
}

/** The build summary's lines for one domain: the same figures, in words. */
export function figureLines(domain: string, f: DemoFigures): string[] {
  const k = f.kill_rate_all;
  const probes = Object.entries(f.probe_solve_rate).map(([p, r]) => `${p} ${r}`).join(", ");
  return [
    `${domain} before the release filter: violation traces ${k.killed}/${k.total} killed over all generated tasks${k.total ? ` (${((100 * k.killed) / k.total).toFixed(1)}%)` : ""}; probes solve (released tasks) ${probes || "-"}; horizon ${horizonText(f.horizon)}`,
    ...f.survivors.map((s) => `  survivor ${domain}/${s}`),
  ];
}
