import { TaskValidation, ValidationReport } from "../../pipeline/schemas/index.js";
import type { RecordedMutant } from "./audit-task.js";
import { parseFile, parseOwnFiles, type DomainOwnFiles, type ReleaseContents } from "./parse-release.js";
import type { FileFailure, ReleaseFiles } from "./verify-integrity.js";

/**
 * What the audit needs of a domain's validation report: which tasks it releases and the mutants it
 * records per task (the fields the audit compares). The report grows with the tasks (about 13 KB a
 * task: every gate's detail, every mutant's description), and parsed whole it was most of the
 * audit's peak memory at 10,000 tasks (the text as UTF-16, the parsed tree and zod's copy at once),
 * so a well-formed report is read entry by entry: each `tasks` element is parsed and schema-checked
 * on its own and only its claims are kept. Anything unexpected falls back to the whole-file parse,
 * so a malformed report is reported exactly as before.
 */
export interface ReportClaims {
  released: Set<string>;
  mutants: Map<string, RecordedMutant[]>;
}

const [QUOTE, BACKSLASH, COMMA, COLON, LBRACE, RBRACE, LBRACKET, RBRACKET] = ['"', "\\", ",", ":", "{", "}", "[", "]"].map((c) => c.charCodeAt(0)) as number[] as [number, number, number, number, number, number, number, number];
const isSpace = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipSpace(b: Buffer, i: number): number {
  while (isSpace(b[i])) i++;
  return i;
}

/** End (exclusive) of the string starting at `i`, or -1. */
function stringEnd(b: Buffer, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    if (b[j] === BACKSLASH) j++;
    else if (b[j] === QUOTE) return j + 1;
  }
  return -1;
}

/** End (exclusive) of the JSON value starting at `i` (bracket depth for objects and arrays; JSON.parse checks the slice itself), or -1. */
function valueEnd(b: Buffer, i: number): number {
  const c = b[i];
  if (c === QUOTE) return stringEnd(b, i);
  if (c !== LBRACE && c !== LBRACKET) {
    let j = i;
    while (j < b.length && b[j] !== COMMA && b[j] !== RBRACE && b[j] !== RBRACKET && !isSpace(b[j])) j++;
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < b.length; j++) {
    const x = b[j];
    if (x === QUOTE) {
      j = stringEnd(b, j) - 1;
      if (j < 0) return -1;
    } else if (x === LBRACE || x === LBRACKET) depth++;
    else if (x === RBRACE || x === RBRACKET) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

const parseSlice = (b: Buffer, start: number, end: number): unknown => JSON.parse(b.toString("utf8", start, end));

/**
 * Split a top-level JSON object into its members, parsing every member but `tasks` and handing each
 * `tasks` element to `onTask` as it is parsed. Null when the bytes are not a plain object of unique
 * keys with a `tasks` array (the caller then parses the whole file).
 */
function splitReport(b: Buffer, onTask: (entry: unknown) => boolean): Record<string, unknown> | null {
  const rest: Record<string, unknown> = {};
  let sawTasks = false;
  let i = skipSpace(b, 0);
  if (b[i] !== LBRACE) return null;
  i = skipSpace(b, i + 1);
  if (b[i] === RBRACE) return null;
  for (;;) {
    if (b[i] !== QUOTE) return null;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return null;
    const key = parseSlice(b, i, keyEnd) as string;
    if (key in rest || (key === "tasks" && sawTasks)) return null;
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return null;
    i = skipSpace(b, i + 1);
    if (key === "tasks") {
      sawTasks = true;
      if (b[i] !== LBRACKET) return null;
      i = skipSpace(b, i + 1);
      if (b[i] === RBRACKET) i++;
      else {
        for (;;) {
          const end = valueEnd(b, i);
          if (end < 0 || !onTask(parseSlice(b, i, end))) return null;
          i = skipSpace(b, end);
          if (b[i] === RBRACKET) {
            i++;
            break;
          }
          if (b[i] !== COMMA) return null;
          i = skipSpace(b, i + 1);
        }
      }
    } else {
      const end = valueEnd(b, i);
      if (end < 0) return null;
      rest[key] = parseSlice(b, i, end);
      i = end;
    }
    i = skipSpace(b, i);
    if (b[i] === RBRACE) break;
    if (b[i] !== COMMA) return null;
    i = skipSpace(b, i + 1);
  }
  return sawTasks && skipSpace(b, i + 1) === b.length ? rest : null;
}

function addClaims(out: ReportClaims, t: TaskValidation): void {
  if (t.status === "released") out.released.add(t.task);
  out.mutants.set(
    t.task,
    t.mutants.map(({ operator, target_check, killed, failed_checks }) => ({ operator, target_check, killed, failed_checks })),
  );
}

const noClaims = (): ReportClaims => ({ released: new Set(), mutants: new Map() });

/** The claims of a domain's validation report (null when it is missing or invalid, each problem recorded as the whole-file parse records it). */
export function readReportClaims(contents: ReleaseFiles, file: string, problems: FileFailure[]): ReportClaims | null {
  const bytes = contents.get(file);
  if (bytes) {
    // Each entry is reduced to its claims as soon as it is parsed: no entry is held in full.
    const claims = noClaims();
    let rest: Record<string, unknown> | null = null;
    try {
      rest = splitReport(bytes, (entry) => {
        const r = TaskValidation.safeParse(entry);
        if (r.success) addClaims(claims, r.data);
        return r.success;
      });
    } catch {
      rest = null;
    }
    // The rest of the report with an empty task list against the report's schema: together with each entry's, the whole report's check.
    if (rest && ValidationReport.safeParse({ ...rest, tasks: [] }).success) return claims;
  }
  const report = parseFile(contents, file, ValidationReport, problems, true);
  if (!report) return null;
  const claims = noClaims();
  for (const t of report.tasks) addClaims(claims, t);
  return claims;
}

/** A domain's own files for the audit: the validation report read as its claims (above), in the order parseDomainFiles reads it. */
export function parseAuditDomain(release: ReleaseContents, id: string, problems: FileFailure[]): DomainOwnFiles & { validation: ReportClaims | null } {
  return parseOwnFiles(release, id, problems, (file) => readReportClaims(release.contents, file, problems));
}
