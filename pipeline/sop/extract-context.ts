import type { DocumentFrontMatter } from "../schemas/document-front-matter.js";
import type { ApplicabilityStatus, SopProblem } from "../schemas/sop.js";
import type { DocumentOutline, InlineCode } from "../sources/outline-types.js";
import { problem } from "./problems.js";
import { looksLikeOperation, type WorldIndex } from "./world-index.js";

/** One document version as the extractors see it. */
export interface DocInput {
  /** File relative to the domain folder. */
  file: string;
  meta: DocumentFrontMatter;
  /** The whole file text (front matter included), so line numbers are file lines. */
  text: string;
  outline: DocumentOutline;
  /** Applicability on the domain's as-of date for its default profile. */
  status: ApplicabilityStatus;
}

/** How an inline-code name resolves against the world. */
export type NameKind = "operation" | "table" | "other" | "unknown_operation" | "text";

/** Classify an inline-code name: an operation or table of the world, another world name, an unknown operation-like name, or plain text. */
export function classifyName(name: string, world: WorldIndex | null): NameKind {
  if (!world) return "text";
  if (world.operations.has(name)) return "operation";
  if (world.tables.has(name)) return "table";
  if (world.otherNames.has(name)) return "other";
  return looksLikeOperation(name) ? "unknown_operation" : "text";
}

/**
 * Report inline-code names that look like operations but are not in world.yaml. An error in a
 * document version in force (the agent would be sent to a tool that does not exist); a review item
 * in other versions, which may legitimately name tools that have since been retired.
 */
export function unknownOperationProblems(codes: readonly InlineCode[], doc: DocInput, world: WorldIndex | null, where: string): SopProblem[] {
  const out: SopProblem[] = [];
  const seen = new Set<string>();
  for (const c of codes) {
    if (seen.has(c.value) || classifyName(c.value, world) !== "unknown_operation") continue;
    seen.add(c.value);
    const severity = doc.status === "current" ? "error" : "review";
    const note = severity === "review" ? ` (document version ${doc.meta.version} is ${doc.status.replace(/_/g, " ")})` : "";
    out.push(problem("SOP_UNKNOWN_OPERATION", `${where} names \`${c.value}\`, which looks like an operation but is not one in world.yaml${note}`, { document: doc.meta.id, file: doc.file, line: c.line }, severity));
  }
  return out;
}
