/**
 * One error type for the whole foundry: every failure the user can cause carries a stable code,
 * where it happened (file and line, or a field path) and the value that was wrong.
 */
export interface FoundryLocation {
  /** File the problem is in, relative to the folder the user named (never absolute in artifacts). */
  file?: string;
  /** 1-based line, where known. */
  line?: number;
  /** Field path inside the file or object, e.g. `operations[2].params.amount`. */
  path?: string;
}

export interface FoundryIssue extends FoundryLocation {
  code: string;
  message: string;
  /** The offending value, quoted in messages; omitted when there is none. */
  value?: unknown;
}

export class FoundryError extends Error {
  readonly code: string;
  readonly location: FoundryLocation;
  readonly value: unknown;
  readonly isFoundryError = true;

  constructor(code: string, message: string, location: FoundryLocation = {}, value?: unknown) {
    super(message);
    this.name = "FoundryError";
    this.code = code;
    this.location = location;
    this.value = value;
  }

  toIssue(): FoundryIssue {
    const issue: FoundryIssue = { code: this.code, message: this.message, ...this.location };
    if (this.value !== undefined) issue.value = this.value;
    return issue;
  }

  static is(e: unknown): e is FoundryError {
    return typeof e === "object" && e !== null && (e as { isFoundryError?: unknown }).isFoundryError === true;
  }
}

/** Short, single-line rendering of a value for messages (`"abc"`, `42`, `{…}` cut at 60 chars). */
export function quote(value: unknown): string {
  let s: string;
  try {
    s = typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** `file:line path: [code] message (got value)` — the one human format for issues. */
export function formatIssue(issue: FoundryIssue): string {
  let where = issue.file ?? "";
  if (issue.file && issue.line !== undefined) where += `:${issue.line}`;
  if (issue.path) where += where ? ` ${issue.path}` : issue.path;
  const got = issue.value !== undefined ? ` (got ${quote(issue.value)})` : "";
  return `${where ? `${where}: ` : ""}[${issue.code}] ${issue.message}${got}`;
}

/** Exit codes of every command: 0 ok, 1 invalid input or failed check, 2 usage error. */
export const EXIT = { ok: 0, invalid: 1, usage: 2 } as const;
