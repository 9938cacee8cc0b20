import type { FoundryIssue } from "../core/errors.js";
import { FoundryError, formatIssue } from "../core/errors.js";

/** A step of a field path: object key or array index. */
export type PathSegment = string | number;

/** One problem found in a world model, before it is placed in a file (line numbers come later). */
export interface WorldProblem {
  code: string;
  message: string;
  path: PathSegment[];
  value?: unknown;
}

/** Collects problems; checks push into it instead of throwing so every problem is reported at once. */
export class ProblemList {
  readonly items: WorldProblem[] = [];

  add(code: string, message: string, path: PathSegment[], value?: unknown): void {
    const p: WorldProblem = { code, message, path };
    if (value !== undefined) p.value = value;
    this.items.push(p);
  }
}

/** `operations[2].params.amount` from `["operations", 2, "params", "amount"]`. */
export function formatPath(path: readonly PathSegment[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

/** Every problem of an invalid world model at once; `issues` is what tools print and tests assert. */
export class WorldInvalidError extends FoundryError {
  readonly issues: FoundryIssue[];

  constructor(file: string, issues: FoundryIssue[]) {
    const head = `${file}: ${issues.length} problem${issues.length === 1 ? "" : "s"} in the world model`;
    super("WORLD_INVALID", [head, ...issues.map((i) => `  ${formatIssue(i)}`)].join("\n"), { file });
    this.name = "WorldInvalidError";
    this.issues = issues;
  }
}
