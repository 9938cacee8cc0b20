import type { Command } from "commander";

/** One command of `synth`: what `synth --help` lists, and how to load the module that registers it. */
export interface CommandRow {
  /** The command's name, as typed. */
  name: string;
  /** Its arguments as the listing shows them (`<release>`, `[dirs...]`). */
  args: string;
  /** One line for the listing; the full description and options are in the command's module. */
  summary: string;
  /** Imports the command's module (and with it every library it needs) and returns its register function. */
  load: () => Promise<(program: Command) => void>;
}

/**
 * Every command of `synth`, in the order `--help` lists them. Modules are imported only when their
 * command runs (see pipeline/cli/main.ts): keep every import here a dynamic `import()`.
 */
export const COMMANDS: readonly CommandRow[] = [
  { name: "init", args: "<domain>", summary: "Scaffold a new domain folder: card, one document of each kind, a minimal world.", load: async () => (await import("./init.js")).registerInit },
  { name: "check-sources", args: "[dirs...]", summary: "Validate domain folders: card, documents, links, world.yaml.", load: async () => (await import("./check-sources.js")).registerCheckSources },
  { name: "sop", args: "<domain>", summary: "Extract a domain's structured SOPs into sop/<domain>/ for review.", load: async () => (await import("./sop.js")).registerSop },
  { name: "draft-world", args: "<domain>", summary: "Draft sources/<domain>/world.yaml from the documents, with a review list.", load: async () => (await import("./draft-world.js")).registerDraftWorld },
  { name: "build", args: "", summary: "Run the synthesis graph over domains (SOPs, world, tasks, checks, golden traces, validation).", load: async () => (await import("./build.js")).registerBuild },
  { name: "resume", args: "[run]", summary: "Continue a build run that crashed or was killed.", load: async () => (await import("./build.js")).registerBuild },
  { name: "schema", args: "", summary: "Write one JSON Schema per artifact.", load: async () => (await import("./schema.js")).registerSchema },
  { name: "demo", args: "", summary: "Offline demonstration: build, export and audit the sample release, evaluate on it.", load: async () => (await import("./demo.js")).registerDemo },
  { name: "release", args: "<name>", summary: "Freeze generated domains into a read-only, content-hashed release.", load: async () => (await import("./release.js")).registerRelease },
  { name: "audit", args: "<release>", summary: "Audit a frozen release: hashes, derived files, golden and violation traces.", load: async () => (await import("./audit.js")).registerAudit },
  { name: "diff", args: "<a> <b>", summary: "Compare two releases: tasks, documents, checks and golden events.", load: async () => (await import("./diff.js")).registerDiff },
  { name: "evaluate", args: "<release>", summary: "Evaluate an agent on a frozen release under the fault conditions E0–E3.", load: async () => (await import("./evaluate.js")).registerEvaluate },
  { name: "score", args: "<dir>", summary: "Recompute an evaluation's summary and report from its stored traces.", load: async () => (await import("./score.js")).registerScore },
  { name: "simfidelity", args: "<release>", summary: "Measure an environment simulator against the executable world on the golden traces.", load: async () => (await import("./simfidelity.js")).registerSimFidelity },
  { name: "compare", args: "<a> <b>", summary: "Compare two evaluations of one release, task by task.", load: async () => (await import("./compare.js")).registerCompare },
  { name: "show", args: "<release> <task>", summary: "Show a released task or an evaluated episode for review.", load: async () => (await import("./show.js")).registerShow },
  { name: "review", args: "<release>", summary: "Write the review pages of a whole release.", load: async () => (await import("./review.js")).registerReview },
  { name: "worker", args: "", summary: "Work items of the postgres backend's job queue (episodes, build task slots).", load: async () => (await import("./worker.js")).registerWorker },
  { name: "queue", args: "<action>", summary: "Inspect and operate the postgres backend's job queue (status, retry-failed).", load: async () => (await import("./queue.js")).registerQueue },
];
