import type { z } from "zod";
import type { CheckGroup, Trace } from "../../pipeline/schemas/index.js";
import type { CheckContext } from "../../pipeline/world/types.js";

/** What one check kind decides about one trace; `runChecks` adds the check id and group. */
export interface CheckVerdict {
  passed: boolean;
  /** Names the event index or row that decided the verdict. */
  reason: string;
  /** Deciding event index (1-based), or null when no single event decided it. */
  event: number | null;
}

/**
 * A registered check kind: a small pure function of the trace and a read-only context. `params` is
 * the zod schema its parameters must satisfy; `run` only ever sees parameters that parsed.
 */
export interface CheckKind<P extends z.ZodType = z.ZodType> {
  /** snake_case name used in `AcceptanceCheck.kind`. */
  readonly kind: string;
  /** The group the kind is meant for (documentation; a task may file it elsewhere). */
  readonly group: CheckGroup;
  /** What the check asserts, in one sentence. */
  readonly description: string;
  /** The kind of wrong execution it exists to catch (for the generated README). */
  readonly catches: string;
  readonly params: P;
  run(params: z.output<P>, trace: Trace, ctx: CheckContext): CheckVerdict;
}

/** Identity helper that lets TypeScript infer the params type of a kind from its schema. */
export function defineCheck<P extends z.ZodType>(def: CheckKind<P>): CheckKind<P> {
  return def;
}
