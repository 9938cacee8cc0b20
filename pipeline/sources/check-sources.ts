import { readdirSync, existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FoundryIssue } from "../core/errors.js";
import { loadDomain } from "./load-domain.js";

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

/** Check one domain folder: card, documents' front matter, cross-document links. */
export function checkDomain(dir: string): DomainCheck {
  const loaded = loadDomain(dir);
  const issues = loaded.issues.map((i) => ({ ...i, file: i.file !== undefined && i.file !== dir ? join(dir, i.file) : i.file }));
  issues.sort((a, b) => (a.file ?? "").localeCompare(b.file ?? "") || (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code));
  return { domain: loaded.card?.id ?? dir, dir, documents: loaded.documents.length, documentFiles: loaded.documentFiles, issues };
}
