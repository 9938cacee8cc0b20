import { readdirSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FoundryIssue } from "../core/errors.js";
import { loadDomain } from "./load-domain.js";
import { extractLoadedSync } from "../sop/extract-loaded.js";

export interface DomainCheck {
  domain: string;
  /** Folder as the user named it. */
  dir: string;
  /** Documents whose front matter validated. */
  documents: number;
  /** .md files found in docs/. */
  documentFiles: number;
  issues: FoundryIssue[];
}

/** Domain folders under `root` (each subfolder holding a domain.yaml), sorted. */
export function listDomainDirs(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => statSync(join(root, n)).isDirectory() && existsSync(join(root, n, "domain.yaml")))
    .sort()
    .map((n) => join(root, n));
}

/**
 * Check one domain folder: card, documents' front matter, cross-document links, and what the SOP
 * extractor finds wrong in the documents (unknown operations, duplicate anchors, procedures
 * without id or steps, `If` without `then`, bad step or clause references, formal rules whose
 * clause no current document defines). Review items of the extractor are not input errors and
 * are left to `synth sop`.
 */
export function checkDomain(dir: string): DomainCheck {
  const loaded = loadDomain(dir);
  const extracted = extractLoadedSync(loaded).sop.problems.filter((p) => p.severity === "error");
  const all: FoundryIssue[] = [
    ...loaded.issues,
    ...extracted.map((p) => ({ code: p.code, message: p.message, ...(p.file !== null ? { file: p.file } : {}), ...(p.line !== null ? { line: p.line } : {}) })),
  ];
  const issues = all.map((i) => ({ ...i, file: i.file !== undefined && i.file !== dir ? join(dir, i.file) : i.file }));
  issues.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code));
  return { domain: loaded.card?.id ?? dir, dir, documents: loaded.documents.length, documentFiles: loaded.documentFiles, issues };
}
