import { Trace } from "../pipeline/schemas/index.js";
import { FoundryError } from "../pipeline/core/errors.js";
import { formatPath } from "../pipeline/core/schema-issues.js";

/**
 * A trace read from a file or handed over by another stage, parsed against the schema. A trace
 * that does not parse is an error with a name (`TRACE_INVALID`), the field path and the bad value,
 * never something a gate could mistake for a pass.
 */
export function parseTrace(value: unknown, what = "trace"): Trace {
  const r = Trace.safeParse(value);
  if (r.success) return r.data;
  const first = r.error.issues[0];
  const path = first ? formatPath(first.path as PropertyKey[]) : "";
  const more = r.error.issues.length > 1 ? ` (and ${r.error.issues.length - 1} more problems)` : "";
  throw new FoundryError("TRACE_INVALID", `${what} does not parse: ${path ? `${path}: ` : ""}${first?.message ?? "invalid"}${more}`, { path });
}
