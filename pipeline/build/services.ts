import type { TaskDesigner, RubricWriter, Solver, Repairer, Calibrator, DomainContext, EnvConfigWriter, WorldDrafter } from "../agents/types.js";
import type { Sop } from "../schemas/index.js";
import type { Progress } from "./progress.js";
import type { StageCache } from "./stage-cache.js";
import type { SimulatedModels } from "./strategies.js";

/**
 * What the graph's nodes use besides their state: the agent strategies chosen for this build, the
 * progress display, the stage cache and a memo of loaded domains. Passed as LangGraph's run
 * `context`, so nothing here is checkpointed and nothing is a module-level singleton.
 */
export interface BuildServices {
  designer: TaskDesigner;
  rubricWriter: RubricWriter;
  solver: Solver;
  repairer: Repairer;
  /** The calibrate stage's strategy: the probe panel, or a model agent's solve rate. */
  calibrator: Calibrator;
  /** Drafts a missing world.yaml (the environment builder's llm strategy); null when no model is configured for the role. */
  worldDrafter: WorldDrafter | null;
  /** Writes environment configurations from the documents (the environment builder's llm strategy); null: the world model's rendering. */
  envConfigWriter?: EnvConfigWriter | null;
  /** The simulated-only branch's models by role (build/strategies.ts SIMULATED_ROLES); empty when none is configured or no domain is simulated-only. */
  simulated?: SimulatedModels;
  /** Strategy names per role, recorded in reports and release manifests. */
  strategies: Record<string, string>;
  /** Model per agent role (every role; `deterministic` when none), recorded in the build record. */
  models: Record<string, string>;
  /** Model settings that shape outputs (base URL, temperature) when a model is configured; empty otherwise. */
  modelSettings: Record<string, unknown>;
  /** Fingerprint of the code the whole build runs (stage-code.ts), recorded in the build record. */
  codeFingerprint: string;
  /** SOP extraction: the deterministic extractor, or an llm one when configured. */
  extractSop(dir: string): Promise<Sop>;
  progress: Progress;
  cache: StageCache;
  /** Loaded domain contexts by `dir|sopHash|seed`, rebuilt on demand after a resume. */
  contexts: Map<string, DomainContext>;
  /** Wall time and stage-cache hits per stage of this run (reported, never written into artifacts). */
  runStats: Map<string, { ms: number; cacheHits: number }>;
  /** Model calls and tokens per stage so far (all zero when no model is configured). */
  llmUsage(): Record<string, { modelCalls: number; cacheHits: number; tokensIn: number; tokensOut: number }>;
  /** The postgres backend's per-slot work: run one task slot's design → … → calibrate on a worker (absent in an embedded build). */
  slots?: SlotRunner;
  /** Test hook: called at the start of every node with its name (e.g. to crash a build midway). */
  onNode?: (node: string) => void;
}

/** What a worker hands back for one task slot: its record, the violation traces of its last verification, its calibration. */
export interface SlotOutcome {
  record: import("../graph/state.js").TaskRecord;
  /** Labelled violation traces of the record's last gate run (released candidates only). */
  violations: Array<{ label: string; trace: import("../schemas/index.js").Trace }>;
  /** The calibrator's verdict on the record's task (null when the release rules will not ask for one). */
  calibration: unknown;
}

/** Runs one task slot's per-slot work elsewhere (a queue item) and waits for it. */
export interface SlotRunner {
  run(state: import("../graph/state.js").BuildStateType): Promise<SlotOutcome>;
}

/** The part of LangGraph's runtime a node reads: the run context (typed loosely, as LangGraph passes it). */
export interface NodeConfig {
  context?: unknown;
}

/** The services of a node's run; a node run outside a build is a programming error. */
export function services(config: NodeConfig | undefined): BuildServices {
  const s = config?.context as BuildServices | undefined;
  if (!s || typeof s !== "object" || !("designer" in s)) throw new Error("graph node invoked without build services in the run context");
  return s;
}
