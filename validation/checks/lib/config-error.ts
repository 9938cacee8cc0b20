import { FoundryError } from "../../../pipeline/core/errors.js";

/**
 * A check whose parameters parsed but do not fit the world or task (unknown rule, fact without a
 * parameter…). `runChecks` turns it into a failed result naming the check; it never escapes.
 */
export function checkConfigError(message: string, value?: unknown): FoundryError {
  return new FoundryError("CHECK_CONFIG", message, {}, value);
}
