import { z } from "zod";
import { FoundryError, quote } from "../core/errors.js";
import { canonicalJson } from "../core/canonical-json.js";
import { Condition } from "../schemas/evaluation-result.js";

/** Every setting of one evaluation; stored in `settings.json` and in the summary. */
export const EvaluationSettings = z
  .object({
    release: z.object({ name: z.string(), version: z.string(), root_hash: z.string() }).strict().describe("The release evaluated."),
    agent: z.string().describe("Agent spec."),
    user_sim: z.string().describe("Customer simulator spec: deterministic or provider:model."),
    conditions: z.array(Condition).min(1).describe("Fault conditions run."),
    fault_events: z.number().int().min(0).describe("Fault events per faulted episode."),
    fault_duration: z.number().int().min(1).describe("Consecutive agent calls one fault event affects."),
    runs: z.number().int().min(1).describe("Runs per task and condition (K)."),
    tasks: z.array(z.string()).nullable().describe("Task ids selected (--tasks); null: every task."),
    domains: z.array(z.string()).nullable().describe("Domains selected (--domains); null: every domain."),
    max_turns: z.number().int().min(1).nullable().describe("Bound on agent turns; null: each task's max_turns."),
    max_tool_calls: z.number().int().min(1).nullable().describe("Bound on agent calls; null: 3 × the golden trace's agent calls."),
    wall_time_ms: z.number().int().min(1).describe("Wall-time bound of one episode in milliseconds."),
    tools: z.enum(["direct", "discovery"]).describe("direct: business operations as tools; discovery: reached through the discovery tools only."),
    ablation: z.enum(["none", "gold-docs", "full-disclosure"]).describe("gold-docs: in-force relevant documents given up front; full-disclosure: every private fact in the opening request."),
    seed: z.number().int().min(0).describe("Evaluation seed; each episode's seed is forked from it."),
    env: z
      .enum(["executable", "simulated", "hybrid"])
      .default("executable")
      .describe("executable: the world runtime answers every call and the release's checks judge; simulated: the env-sim model answers every business call from the task's environment configuration and a rubric vote judges; hybrid: the runtime answers and the checks judge, the env-sim model renders the responses of the simulated operations."),
    env_sim: z.string().nullable().default(null).describe("Model spec of the env-sim role (simulated and hybrid); null for executable."),
    simulate_ops: z.array(z.string()).nullable().default(null).describe("Hybrid: the operations whose responses the env-sim model renders; null otherwise."),
  })
  .strict()
  .describe("Settings of one evaluation.");
export type EvaluationSettings = z.infer<typeof EvaluationSettings>;

/** Settings that decide what an episode is; concurrency and output paths are not among them. */
export const SETTINGS_FILE = "settings.json";

function usage(option: string, expected: string, value: unknown): never {
  throw new FoundryError("USAGE", `${option} expects ${expected}, got ${quote(value)}`, { path: option }, value);
}

/** A whole number option (`--runs 3`), checked; a bad value is a usage error quoting it. */
export function wholeOption(option: string, raw: string | undefined, min: number, fallback: number): number;
export function wholeOption(option: string, raw: string | undefined, min: number, fallback: null): number | null;
export function wholeOption(option: string, raw: string | undefined, min: number, fallback: number | null): number | null {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) usage(option, `a whole number from ${min} and up`, raw);
  return Number(raw);
}

/** A comma-separated list option; empty items are refused. */
export function listOption(option: string, raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const items = raw.split(",").map((s) => s.trim());
  if (items.length === 0 || items.some((s) => s === "")) usage(option, "a comma-separated list without empty items", raw);
  return [...new Set(items)];
}

/** `--conditions E0,E2`: known conditions, in E0…E3 order. */
export function conditionsOption(raw: string | undefined): Condition[] {
  const items = listOption("--conditions", raw) ?? ["E0", "E1", "E2", "E3"];
  for (const c of items) if (!Condition.safeParse(c).success) usage("--conditions", "a list of E0, E1, E2, E3", c);
  return (Condition.options as readonly string[]).filter((c) => items.includes(c)) as Condition[];
}

/** One of a fixed set of values. */
export function choiceOption<T extends string>(option: string, raw: string | undefined, choices: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw)) usage(option, `one of ${choices.join(", ")}`, raw);
  return raw as T;
}

/** Names of the settings whose stored value differs from `now` (a rerun on the same --out must match). */
export function differingSettings(stored: EvaluationSettings, now: EvaluationSettings): Array<keyof EvaluationSettings> {
  return (Object.keys(now) as Array<keyof EvaluationSettings>).filter((k) => canonicalJson(stored[k]) !== canonicalJson(now[k]));
}

/** `simulated ` / `hybrid `; nothing for the default executable mode. */
const modeWord = (env: EvaluationSettings["env"]): string => (env === "executable" ? "" : `${env} `);

/** Refuse a rerun whose settings differ from those stored in its output folder, naming each. */
export function assertSameSettings(file: string, stored: unknown, now: EvaluationSettings): void {
  const parsed = EvaluationSettings.safeParse(stored);
  if (!parsed.success) throw new FoundryError("EVALUATION_SETTINGS_INVALID", `${SETTINGS_FILE} does not hold evaluation settings; use --fresh to start over`, { file });
  const s = parsed.data;
  if (s.release.name !== now.release.name || s.release.version !== now.release.version || s.agent !== now.agent || s.env !== now.env) {
    throw new FoundryError(
      "EVALUATION_OUT_CONFLICT",
      `this folder holds the ${modeWord(s.env)}evaluation of ${s.agent} on ${s.release.name}@${s.release.version}, not ${s.env === now.env ? "" : `the ${modeWord(now.env)}evaluation `}of ${now.agent} on ${now.release.name}@${now.release.version}: choose another --out`,
      { file },
      { stored: { agent: s.agent, release: `${s.release.name}@${s.release.version}` } },
    );
  }
  const diff = differingSettings(s, now);
  if (diff.length > 0) {
    const show = diff.map((k) => `${k}: stored ${canonicalJson(s[k])}, now ${canonicalJson(now[k])}`).join("; ");
    throw new FoundryError("EVALUATION_SETTINGS_CONFLICT", `settings differ from the stored ones (${show}); rerun with the stored settings, or --fresh to start over`, { file }, diff);
  }
}
