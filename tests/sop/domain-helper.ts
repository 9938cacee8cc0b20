import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadDomain } from "../../pipeline/sources/load-domain.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import type { DeterministicOptions } from "../../pipeline/sop/extract-deterministic.js";
import type { Sop } from "../../pipeline/schemas/sop.js";

/** The clean sample domain every test starts from. */
export const BASE_DOMAIN = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "sources", "acme-payments");

const made: string[] = [];

/** A copy of the base domain in a temp folder named `acme-payments`, with files added, replaced (text) or removed (null). */
export function makeDomain(files: Record<string, string | null> = {}, opts: { keepDocs?: boolean } = {}): string {
  const root = mkdtempSync(join(tmpdir(), "foundry-sop-"));
  made.push(root);
  const dir = join(root, "acme-payments");
  cpSync(BASE_DOMAIN, dir, { recursive: true });
  if (opts.keepDocs === false) rmSync(join(dir, "docs"), { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const file = join(dir, rel);
    if (text === null) rmSync(file, { force: true });
    else {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
  }
  return dir;
}

/** Remove every folder made by makeDomain. */
export function cleanDomains(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Deterministic SOP of a domain folder (loader issues not included). */
export function sopOf(dir: string, opts: DeterministicOptions = {}): Sop {
  return extractLoadedSync(loadDomain(dir), opts).sop;
}

/** Front matter + body of a test document. */
export function doc(front: Record<string, string>, body: string): string {
  const merged: Record<string, string | undefined> = { id: undefined, title: undefined, kind: "procedure", version: '"1"', effective_from: "2026-01-01", ...front };
  const lines = Object.entries(merged)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return `---\n${lines.join("\n")}\n---\n${body}`;
}

/**
 * Problems as compact tuples for exact assertions: [code, file, line, severity]. Conditions the
 * designer cannot decide (SOP_CONDITION_UNREAD) are left out: these fixtures write free-text
 * conditions on purpose; tests/sop/condition-problems.test.ts covers that code.
 */
export function brief(sop: Sop): Array<[string, string | null, number | null, string]> {
  return sop.problems.filter((p) => p.code !== "SOP_CONDITION_UNREAD").map((p) => [p.code, p.file, p.line, p.severity]);
}
