import type { SopProblem } from "../schemas/sop.js";

/** Where a problem is: document id, file (relative to the domain folder) and line. */
export interface ProblemSite {
  document?: string | null;
  file?: string | null;
  line?: number | null;
}

/** An SOP problem. `error`: the input is wrong; `review`: a person must establish the meaning. */
export function problem(code: string, message: string, at: ProblemSite, severity: SopProblem["severity"]): SopProblem {
  return { code, message, document: at.document ?? null, file: at.file ?? null, line: at.line ?? null, severity };
}

/** Problems in a stable order: file, line, code, message. */
export function sortProblems(list: readonly SopProblem[]): SopProblem[] {
  return [...list].sort(
    (a, b) =>
      (a.file ?? "").localeCompare(b.file ?? "") ||
      (a.line ?? 0) - (b.line ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}
