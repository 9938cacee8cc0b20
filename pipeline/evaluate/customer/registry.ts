import { FoundryError, quote } from "../../core/errors.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import { parseModelSpec } from "../../llm/model-registry.js";
import { deterministicCustomer } from "./deterministic.js";
import { llmCustomerFactory } from "./llm.js";
import type { CustomerFactory } from "./types.js";

/** Whether a `--user-sim` spec is valid: `deterministic` or `provider:model`; a usage error quoting it otherwise. */
export function checkCustomerSpec(spec: string): "deterministic" | "llm" {
  if (spec === "deterministic") return "deterministic";
  try {
    if (parseModelSpec(spec)) return "llm";
  } catch {
    // Falls through.
  }
  throw new FoundryError("USAGE", `--user-sim expects deterministic or provider:model, got ${quote(spec)}`, { path: "--user-sim" }, spec);
}

/** The customer a spec names: the scripted customer, or the llm customer on the runtime's `user-sim` role. */
export function customerFactory(spec: string, runtime: () => LlmRuntime): CustomerFactory {
  return checkCustomerSpec(spec) === "deterministic" ? deterministicCustomer : llmCustomerFactory({ runtime: runtime() });
}
