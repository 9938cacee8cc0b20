import { lstatSync, readdirSync, readFileSync, realpathSync, statSync, existsSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { FoundryIssue } from "../core/errors.js";
import { firstInvalidUtf8, lineOfByte } from "./byte-lines.js";

/** Largest document accepted (bytes). */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export interface DomainFile {
  /** Path relative to the domain folder, POSIX separators (e.g. `docs/fx-policy.md`). */
  rel: string;
  abs: string;
  text: string;
}

export interface DomainFiles {
  root: string;
  card?: DomainFile;
  world?: DomainFile;
  docs: DomainFile[];
  /** .md files found in docs/, including those refused. */
  docFiles: number;
  issues: FoundryIssue[];
}

function toPosix(p: string): string {
  return p.split(sep).join("/");
}

/**
 * Read a domain folder's files safely: no symbolic link leading outside the folder, no binary or
 * non-UTF-8 file, nothing over the size limit. Each refusal is an issue; the other files are read.
 */
export function readDomainFiles(root: string): DomainFiles {
  const out: DomainFiles = { root, docs: [], docFiles: 0, issues: [] };
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    out.issues.push({ code: "DOMAIN_NOT_FOUND", message: "domain folder does not exist or is not a folder", file: root });
    return out;
  }
  const realRoot = realpathSync(root);
  const read = (rel: string, required: boolean): DomainFile | undefined => {
    const abs = join(root, rel);
    let st;
    try {
      st = lstatSync(abs);
    } catch {
      if (required) out.issues.push({ code: "DOMAIN_MISSING_FILE", message: `required file ${rel} is missing${rel === "world.yaml" ? " (draft it from the documents with `synth draft-world <domain>`)" : ""}`, file: rel });
      return undefined;
    }
    if (st.isSymbolicLink()) {
      let target: string;
      try {
        target = realpathSync(abs);
      } catch {
        out.issues.push({ code: "DOC_BROKEN_LINK", message: "symbolic link points nowhere", file: rel });
        return undefined;
      }
      if (target !== realRoot && !target.startsWith(realRoot + sep)) {
        out.issues.push({ code: "DOC_SYMLINK_OUTSIDE", message: "symbolic link leads outside the domain folder", file: rel });
        return undefined;
      }
    }
    const size = statSync(abs).size;
    if (size > MAX_DOCUMENT_BYTES) {
      out.issues.push({ code: "DOC_TOO_LARGE", message: `file is ${size} bytes; the limit is ${MAX_DOCUMENT_BYTES}`, file: rel, value: size });
      return undefined;
    }
    const bytes = readFileSync(abs);
    const nul = bytes.indexOf(0);
    if (nul >= 0) {
      out.issues.push({ code: "DOC_BINARY", message: "file contains NUL bytes: not a text document", file: rel, line: lineOfByte(bytes, nul) });
      return undefined;
    }
    const bad = firstInvalidUtf8(bytes);
    if (bad >= 0) {
      out.issues.push({ code: "DOC_NOT_UTF8", message: `file is not valid UTF-8 (byte ${bad})`, file: rel, line: lineOfByte(bytes, bad) });
      return undefined;
    }
    const text = new TextDecoder("utf-8").decode(bytes);
    // The decoder drops a byte-order mark itself.
    return { rel, abs, text };
  };
  out.card = read("domain.yaml", true);
  out.world = read("world.yaml", true);
  const docsDir = join(root, "docs");
  if (!existsSync(docsDir)) {
    out.issues.push({ code: "DOMAIN_NO_DOCS", message: "docs/ folder is missing", file: "docs" });
    return out;
  }
  const names = readdirSync(docsDir).filter((n) => n.endsWith(".md")).sort();
  out.docFiles = names.length;
  if (names.length === 0) out.issues.push({ code: "DOMAIN_NO_DOCS", message: "docs/ holds no .md document", file: "docs" });
  for (const name of names) {
    const f = read(toPosix(relative(root, join(docsDir, name))), false);
    if (f) out.docs.push(f);
  }
  return out;
}
