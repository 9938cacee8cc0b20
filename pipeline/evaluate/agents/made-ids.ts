/**
 * Identifiers the world made, followed from a recorded trace into a live episode. A golden trace
 * names the ids its calls returned (a hold, a bed request, a proposal); in another episode the same
 * calls may return other ids (a fault that took a call's turn shifts a counter). An agent reads the
 * id its call returned; a replaying agent does the same by pairing each recorded result with the
 * live one and using the live id wherever the recorded one appears afterwards.
 */
export class MadeIds {
  readonly #map = new Map<string, string | number>();

  /** Pair the identifier fields (`id`, `…_id`) of a recorded result with the live result's. */
  learn(recorded: unknown, live: unknown, key = ""): void {
    if (Array.isArray(recorded) && Array.isArray(live)) {
      recorded.forEach((r, i) => this.learn(r, live[i], key));
      return;
    }
    if (isObject(recorded) && isObject(live)) {
      for (const k of Object.keys(recorded)) this.learn(recorded[k], live[k], k);
      return;
    }
    const isId = key === "id" || key.endsWith("_id");
    if (isId && (typeof recorded === "string" || typeof recorded === "number") && typeof live === typeof recorded && live !== recorded) this.#map.set(String(recorded), live as string | number);
  }

  /** `value` with every recorded id the live episode made differently replaced by the live one. */
  apply<T>(value: T): T {
    if (this.#map.size === 0) return value;
    return this.#replace(value) as T;
  }

  /** A text with the recorded ids replaced (whole tokens only). */
  text(s: string): string {
    let out = s;
    for (const [from, to] of this.#map) out = out.replace(new RegExp(`(?<![\\w-])${escape(from)}(?![\\w-])`, "g"), String(to));
    return out;
  }

  #replace(v: unknown): unknown {
    if (Array.isArray(v)) return v.map((x) => this.#replace(x));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.#replace(x)]));
    if ((typeof v === "string" || typeof v === "number") && this.#map.has(String(v))) {
      const to = this.#map.get(String(v)) as string | number;
      return typeof to === typeof v ? to : v;
    }
    return v;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
