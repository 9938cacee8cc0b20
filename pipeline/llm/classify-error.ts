import { getRetryable } from "@langchain/core/errors";

/**
 * A model answered, but not usably (no JSON, malformed JSON, wrong shape, a refusal). Retriable
 * unless it is a refusal; `feedback` is what the model is told before it tries again.
 */
export class InvalidAnswerError extends Error {
  constructor(
    message: string,
    readonly reason: "refusal" | "no_json" | "malformed_json" | "schema",
    readonly feedback: string | null,
  ) {
    super(message);
    this.name = "InvalidAnswerError";
  }

  get retriable(): boolean {
    return this.reason !== "refusal";
  }
}

/** Why a model call failed, and whether trying again can help. */
export interface FailureClass {
  /**
   * The error class every message names: `rate_limit`, `server_error`, `timeout`, `connection`,
   * `auth` (401/403, a missing key), `invalid_answer` (the model answered, but not usably),
   * `client_error` (other 4xx), `aborted` (the caller cancelled), `other` (a bug).
   */
  kind: "rate_limit" | "server_error" | "timeout" | "connection" | "auth" | "invalid_answer" | "client_error" | "aborted" | "other";
  retriable: boolean;
  /** HTTP status, when the provider answered. */
  status?: number;
  /** Wait the provider asked for (Retry-After), in ms. */
  retryAfterMs?: number;
}

/** FoundryError code reported when a call finally fails with this kind of failure. */
export const FAILURE_CODES: Record<FailureClass["kind"], string> = {
  rate_limit: "LLM_RATE_LIMIT",
  server_error: "LLM_SERVER_ERROR",
  timeout: "LLM_TIMEOUT",
  connection: "LLM_CONNECTION",
  auth: "LLM_AUTH",
  invalid_answer: "LLM_INVALID_ANSWER",
  client_error: "LLM_REQUEST_REJECTED",
  aborted: "LLM_ABORTED",
  other: "LLM_ERROR",
};

// Socket and DNS failures from Node (libuv) and undici; all are worth another attempt.
const CONNECTION_CODES = new Set([
  "ECONNRESET", "ECONNREFUSED", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH",
  "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "UND_ERR_CLOSED",
]);
// The OpenAI and Anthropic SDKs name connection failures by class; LangChain renames SDK timeouts to TimeoutError.
const CONNECTION_NAMES = new Set(["APIConnectionError", "FetchError"]);
const TIMEOUT_NAMES = new Set(["TimeoutError", "APIConnectionTimeoutError"]);
// Quota exhaustion arrives as a 429 but will not clear by waiting.
const QUOTA_CODES = new Set(["insufficient_quota"]);

type Bag = Record<string, unknown>;

function asBag(e: unknown): Bag | undefined {
  return typeof e === "object" && e !== null ? (e as Bag) : undefined;
}

function statusOf(e: Bag): number | undefined {
  const response = asBag(e.response);
  for (const v of [e.status, e.statusCode, e.status_code, response?.status]) {
    if (typeof v === "number" && Number.isInteger(v)) return v;
  }
  return undefined;
}

function header(e: Bag, name: string): string | undefined {
  for (const h of [e.headers, asBag(e.response)?.headers]) {
    if (!h) continue;
    if (typeof (h as { get?: unknown }).get === "function") {
      const v = (h as { get(n: string): string | null }).get(name);
      if (v != null) return v;
    } else if (typeof h === "object") {
      for (const [k, v] of Object.entries(h as Bag)) if (k.toLowerCase() === name && typeof v === "string") return v;
    }
  }
  return undefined;
}

/** Retry-After as ms: delta-seconds or an HTTP date (measured against `nowMs`); undefined if absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

function codesOf(e: Bag): string[] {
  const out: string[] = [];
  for (const v of [e.code, asBag(e.error)?.code, asBag(e.cause)?.code]) if (typeof v === "string") out.push(v);
  return out;
}

function namesOf(e: Bag): string[] {
  const out: string[] = [];
  if (typeof e.name === "string") out.push(e.name);
  const ctor = (e as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctor === "string") out.push(ctor);
  return out;
}

/**
 * Classify a model-call error by what providers actually put on it: `status` / `response.status`
 * (OpenAI, Anthropic, Ollama SDKs), `code` (Node sockets, undici, OpenAI error bodies), the class
 * name (SDK connection and timeout errors) and LangChain's own retryable stamp.
 */
export function classifyError(error: unknown, nowMs: number = Date.now()): FailureClass {
  const e = asBag(error);
  if (!e) return { kind: "other", retriable: false };
  if (error instanceof InvalidAnswerError) return { kind: "invalid_answer", retriable: error.retriable };
  const names = namesOf(e);
  if (names.includes("AbortError")) return { kind: "aborted", retriable: false };
  const status = statusOf(e);
  if (status !== undefined) {
    if (status === 429) {
      if (codesOf(e).some((c) => QUOTA_CODES.has(c))) return { kind: "rate_limit", retriable: false, status };
      const retryAfterMs = parseRetryAfter(header(e, "retry-after"), nowMs);
      return retryAfterMs === undefined ? { kind: "rate_limit", retriable: true, status } : { kind: "rate_limit", retriable: true, status, retryAfterMs };
    }
    if (status >= 500) return { kind: "server_error", retriable: true, status };
    if (status === 408) return { kind: "timeout", retriable: true, status };
    if (status === 401 || status === 403) return { kind: "auth", retriable: false, status };
    return { kind: "client_error", retriable: false, status };
  }
  if (names.some((n) => TIMEOUT_NAMES.has(n))) return { kind: "timeout", retriable: true };
  if (codesOf(e).some((c) => CONNECTION_CODES.has(c)) || names.some((n) => CONNECTION_NAMES.has(n))) return { kind: "connection", retriable: true };
  // undici's bare `TypeError: fetch failed` carries the socket code on its cause, handled above;
  // without one it is still a connection failure.
  if (error instanceof TypeError && e.message === "fetch failed") return { kind: "connection", retriable: true };
  if (getRetryable(error) === true) return { kind: "other", retriable: true };
  return { kind: "other", retriable: false };
}
