import { costOf, priceOf, type Price } from "./model-prices.js";
import type { ModelRef } from "./model-registry.js";

/** Where a call is charged: the pipeline stage, the item it worked on (task id, document…), the model. */
export interface CallScope {
  stage: string;
  item?: string;
  ref: ModelRef;
}

/** Totals of one bucket (a stage, an item, a model or everything). */
export interface UsageTotals {
  /** Calls asked of the runtime. */
  requests: number;
  /** Requests answered from the response cache. */
  cacheHits: number;
  /** Requests sent to the model provider, first attempts and retries alike. */
  modelCalls: number;
  retries: number;
  /** Requests that ended in an error. */
  failures: number;
  tokensIn: number;
  tokensOut: number;
  /** Estimated USD; null when any call in the bucket used a model with no known price. */
  costUsd: number | null;
  /** Successful model calls whose cost is unknown. */
  unpricedCalls: number;
}

/** Everything counted so far, keys sorted. */
export interface UsageSnapshot {
  total: UsageTotals;
  byStage: Record<string, UsageTotals>;
  byItem: Record<string, UsageTotals>;
  byModel: Record<string, UsageTotals>;
  /** Failures by FoundryError code (LLM_TIMEOUT, LLM_RATE_LIMIT, …). */
  failuresByCode: Record<string, number>;
}

type Counter = "requests" | "cacheHits" | "modelCalls" | "retries" | "failures";

class Bucket {
  readonly counts: Record<Counter, number> = { requests: 0, cacheHits: 0, modelCalls: 0, retries: 0, failures: 0 };
  // Tokens kept per model so the cost is computed once at snapshot time, independent of the
  // order concurrent calls finished in (float sums are not associative).
  readonly tokens = new Map<string, { ref: ModelRef; in: number; out: number; calls: number }>();

  totals(prices: Readonly<Record<string, Price>> | undefined): UsageTotals {
    let tokensIn = 0;
    let tokensOut = 0;
    let cost = 0;
    let unpricedCalls = 0;
    for (const spec of [...this.tokens.keys()].sort()) {
      const t = this.tokens.get(spec)!;
      tokensIn += t.in;
      tokensOut += t.out;
      const c = costOf(priceOf(t.ref, prices), t.in, t.out);
      if (c === null) unpricedCalls += t.calls;
      else cost += c;
    }
    return { ...this.counts, tokensIn, tokensOut, costUsd: unpricedCalls > 0 ? null : Math.round(cost * 1e6) / 1e6, unpricedCalls };
  }
}

function sortedTotals(map: Map<string, Bucket>, prices: Readonly<Record<string, Price>> | undefined): Record<string, UsageTotals> {
  const out: Record<string, UsageTotals> = {};
  for (const k of [...map.keys()].sort()) out[k] = map.get(k)!.totals(prices);
  return out;
}

/** Tokens, calls, cache hits, retries, failures and estimated cost per stage, item and model. */
export class Accounting {
  readonly #total = new Bucket();
  readonly #byStage = new Map<string, Bucket>();
  readonly #byItem = new Map<string, Bucket>();
  readonly #byModel = new Map<string, Bucket>();
  readonly #failuresByCode = new Map<string, number>();
  readonly #prices: Readonly<Record<string, Price>> | undefined;

  /** `prices` replaces the built-in price table (tests, private deployments). */
  constructor(prices?: Readonly<Record<string, Price>>) {
    this.#prices = prices;
  }

  /** Count one event of kind `counter` against the scope. */
  count(scope: CallScope, counter: Counter): void {
    for (const b of this.#buckets(scope)) b.counts[counter]++;
  }

  /** Record the token usage of one successful model call. */
  usage(scope: CallScope, tokensIn: number, tokensOut: number): void {
    for (const b of this.#buckets(scope)) {
      const t = b.tokens.get(scope.ref.spec) ?? { ref: scope.ref, in: 0, out: 0, calls: 0 };
      t.in += tokensIn;
      t.out += tokensOut;
      t.calls++;
      b.tokens.set(scope.ref.spec, t);
    }
  }

  /** Record a request that ended in an error with FoundryError code `code`. */
  failure(scope: CallScope, code: string): void {
    this.count(scope, "failures");
    this.#failuresByCode.set(code, (this.#failuresByCode.get(code) ?? 0) + 1);
  }

  /** A plain, key-sorted copy of every total, for reports. */
  snapshot(): UsageSnapshot {
    const failuresByCode: Record<string, number> = {};
    for (const k of [...this.#failuresByCode.keys()].sort()) failuresByCode[k] = this.#failuresByCode.get(k)!;
    return {
      total: this.#total.totals(this.#prices),
      byStage: sortedTotals(this.#byStage, this.#prices),
      byItem: sortedTotals(this.#byItem, this.#prices),
      byModel: sortedTotals(this.#byModel, this.#prices),
      failuresByCode,
    };
  }

  #buckets(scope: CallScope): Bucket[] {
    const out = [this.#total, bucketIn(this.#byStage, scope.stage), bucketIn(this.#byModel, scope.ref.spec)];
    if (scope.item !== undefined) out.push(bucketIn(this.#byItem, scope.item));
    return out;
  }
}

function bucketIn(map: Map<string, Bucket>, key: string): Bucket {
  let b = map.get(key);
  if (!b) {
    b = new Bucket();
    map.set(key, b);
  }
  return b;
}
