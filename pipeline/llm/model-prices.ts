import type { ModelRef } from "./model-registry.js";

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}

/**
 * List prices of known models (USD per 1M tokens, as published by the providers in 2025). They
 * are estimates for reports, not invoices: cached-input discounts and batch prices are ignored.
 */
export const MODEL_PRICES: Readonly<Record<string, Price>> = {
  "openai:gpt-4.1": { input: 2.0, output: 8.0 },
  "openai:gpt-4.1-mini": { input: 0.4, output: 1.6 },
  "openai:gpt-4.1-nano": { input: 0.1, output: 0.4 },
  "openai:gpt-4o": { input: 2.5, output: 10.0 },
  "openai:gpt-4o-mini": { input: 0.15, output: 0.6 },
  "openai:o3": { input: 2.0, output: 8.0 },
  "openai:o4-mini": { input: 1.1, output: 4.4 },
  "anthropic:claude-opus-4": { input: 15.0, output: 75.0 },
  "anthropic:claude-sonnet-4": { input: 3.0, output: 15.0 },
  "anthropic:claude-sonnet-4-5": { input: 3.0, output: 15.0 },
  "anthropic:claude-3-7-sonnet": { input: 3.0, output: 15.0 },
  "anthropic:claude-3-5-haiku": { input: 0.8, output: 4.0 },
  "anthropic:claude-haiku-4-5": { input: 1.0, output: 5.0 },
};

// Models served on the user's own machine cost nothing per token.
const FREE_PROVIDERS = new Set(["ollama"]);

// Dated snapshots and aliases (`claude-sonnet-4-20250514`, `gpt-4.1-2025-04-14`, `…-latest`) share the base price.
const SNAPSHOT_SUFFIX = /^(-\d{8}|-\d{4}-\d{2}-\d{2}|-latest)$/;

/** The price of a model, or null when it is not known (its cost is then reported as unknown, never as 0). */
export function priceOf(ref: ModelRef, prices: Readonly<Record<string, Price>> = MODEL_PRICES): Price | null {
  if (FREE_PROVIDERS.has(ref.provider)) return { input: 0, output: 0 };
  const exact = prices[ref.spec];
  if (exact) return exact;
  for (const [spec, price] of Object.entries(prices)) {
    if (ref.spec.startsWith(spec) && SNAPSHOT_SUFFIX.test(ref.spec.slice(spec.length))) return price;
  }
  return null;
}

/** Cost in USD of one call, or null when the model's price is unknown. */
export function costOf(price: Price | null, tokensIn: number, tokensOut: number): number | null {
  if (!price) return null;
  return (tokensIn * price.input + tokensOut * price.output) / 1_000_000;
}
