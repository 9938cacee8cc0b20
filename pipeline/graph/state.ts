import { Annotation } from "@langchain/langgraph";
import type { Task, TaskValidation, Trace } from "../schemas/index.js";
import type { Diagnosis } from "../agents/types.js";
import type { SimulatedRecord, SimulatedEnvironmentDraft } from "../nodes/simulated-record.js";

/** One task slot's journey through the graph. */
export interface TaskRecord {
  slot: number;
  id: string | null;
  task: Task | null;
  golden: Trace | null;
  status: "designed" | "checked" | "solved" | "verified" | "failed" | "dropped";
  reason: string | null;
  diagnosis: Diagnosis | null;
  repairs: Array<{ attempt: number; diagnosis: string; action: string }>;
  /** The validation report entry from the last gate run (null before verify). */
  validation: TaskValidation | null;
}

/** Per-stage figures for the build report (deterministic: no times, no cache counts). */
export interface StageFigures {
  stage: string;
  items_in: number;
  items_out: number;
  dropped: Array<{ item: string; reason: string }>;
}

const replace = <T>(def: () => T) => Annotation<T>({ reducer: (_a: T, b: T) => b, default: def });

/** The state of one domain's build; small and JSON-serializable so every step is checkpointed. */
export const BuildState = Annotation.Root({
  /** Domain folder under the sources root. */
  domain: replace<string>(() => ""),
  /** Paths the build reads and writes (relative to the working directory). */
  paths: replace<{ sources: string; sop: string; generated: string; cache: string }>(() => ({ sources: "sources", sop: "sop", generated: "generated", cache: "generated/cache" })),
  seed: replace<number | null>(() => null),
  /** Pause for a person's review after SOP extraction and after the environment build. */
  review: replace<boolean>(() => false),
  /** The review list of the world.yaml this build drafted (nodes/draft-world.ts); null when the domain had one. */
  drafted: replace<string | null>(() => null),
  /** The card's environment (set by ingest): `simulated` takes the simulated-only branch (nodes/simulated-*.ts). */
  environment: replace<"executable" | "simulated">(() => "executable"),
  sourcesHash: replace<string>(() => ""),
  sopHash: replace<string>(() => ""),
  worldHash: replace<string>(() => ""),
  slots: replace<number[]>(() => []),
  /** The slot a design branch works on (set by Send). */
  slot: replace<number>(() => -1),
  /** Designed slots, merged from the fan-out branches and kept in slot order. */
  records: Annotation<TaskRecord[]>({
    reducer: (a, b) => {
      const bySlot = new Map(a.map((r) => [r.slot, r]));
      for (const r of b) bySlot.set(r.slot, r);
      return [...bySlot.values()].sort((x, y) => x.slot - y.slot);
    },
    default: () => [],
  }),
  /** The slot stages' records came from the last build with the same inputs (nodes/reuse-tasks.ts): the fan-out is skipped. */
  reused: replace<boolean>(() => false),
  /** Repair rounds done so far. */
  round: replace<number>(() => 0),
  stages: Annotation<StageFigures[]>({ reducer: (a, b) => [...a.filter((s) => !b.some((x) => x.stage === s.stage)), ...b], default: () => [] }),
  /** A simulated-only domain: the environment builder's configuration (nodes/simulated-environment.ts); null before it, and for executable domains. */
  simEnvironment: replace<SimulatedEnvironmentDraft | null>(() => null),
  /** A simulated-only domain's task slots, in slot order (nodes/simulated-*.ts). */
  simRecords: replace<SimulatedRecord[]>(() => []),
  /** Files written by the collect stage (relative paths), for the report. */
  written: replace<string[]>(() => []),
});

export type BuildStateType = typeof BuildState.State;
export type BuildUpdate = typeof BuildState.Update;
