import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../core/canonical-json.js";
import { OUTLINE_FORMAT, type DocumentOutline } from "./outline-types.js";

/** Content key of a document's outline: depends only on the text and the outline format. */
export function outlineKey(text: string): string {
  return sha256(`outline-v${OUTLINE_FORMAT}\u0000${text}`);
}

/**
 * Outlines by content hash: an in-memory map, backed by `<dir>/<key>.json` files when `dir` is
 * given. Unreadable or outdated cache files are ignored (the document is parsed again).
 */
export class IngestCache {
  readonly dir: string | null;
  readonly #memory = new Map<string, DocumentOutline>();
  hits = 0;
  misses = 0;

  constructor(opts: { dir?: string | null } = {}) {
    this.dir = opts.dir ?? null;
  }

  /** The cached outline of `key`, from memory or disk. */
  get(key: string): DocumentOutline | undefined {
    const mem = this.#memory.get(key);
    if (mem) {
      this.hits++;
      return mem;
    }
    if (this.dir) {
      try {
        const parsed = JSON.parse(readFileSync(join(this.dir, `${key}.json`), "utf8")) as DocumentOutline;
        if (parsed && parsed.format === OUTLINE_FORMAT && Array.isArray(parsed.sections)) {
          this.#memory.set(key, parsed);
          this.hits++;
          return parsed;
        }
      } catch {
        // Not cached on disk (or unreadable): parse again.
      }
    }
    this.misses++;
    return undefined;
  }

  /** Remember an outline; written to disk atomically (temp file + rename) when a dir is set. */
  set(key: string, outline: DocumentOutline): void {
    this.#memory.set(key, outline);
    if (!this.dir) return;
    mkdirSync(this.dir, { recursive: true });
    const file = join(this.dir, `${key}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(outline));
    renameSync(tmp, file);
  }

  get size(): number {
    return this.#memory.size;
  }
}
