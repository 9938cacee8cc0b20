import { FoundryError } from "../../core/errors.js";
import { FAILURE_CODES } from "../../llm/classify-error.js";
import { isModelError } from "../../llm/failure-reason.js";

const KIND_OF_CODE = new Map(Object.entries(FAILURE_CODES).map(([kind, code]) => [code, kind]));

/** The error class of a model call's failure (`rate_limit`, `server_error`…), or null when `e` is not one. */
export function modelFailureKind(e: unknown): string | null {
  if (!FoundryError.is(e) || !isModelError(e)) return null;
  return KIND_OF_CODE.get(e.code) ?? "other";
}
