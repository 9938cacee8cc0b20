import { basename } from "node:path";
import type { FoundryIssue } from "../core/errors.js";
import { parseYaml } from "../core/yaml-source.js";
import { validateAgainst } from "../core/schema-issues.js";
import type { DomainCard } from "../schemas/domain-card.js";
import { DomainCardSource, type DomainEnvironment } from "../schemas/simulated.js";
import { DocumentFrontMatter } from "../schemas/document-front-matter.js";
import { readDomainFiles } from "./read-domain-files.js";
import { splitFrontMatter } from "./split-front-matter.js";
import { compareVersions } from "../sop/select-rules.js";

/** One reference document whose front matter validated. */
export interface SourceDocument {
  /** Path relative to the domain folder, e.g. `docs/fx-policy.md`. */
  file: string;
  meta: DocumentFrontMatter;
  /** Markdown body (front matter removed). */
  body: string;
  /** Line of the file on which the body starts (so body positions map back to file lines). */
  bodyLine: number;
  /** The whole file text, as read. */
  text: string;
}

export interface LoadedDomain {
  root: string;
  card?: DomainCard;
  cardFile?: string;
  /** The card's `environment` (absent: executable); kept apart from the card, whose schema is the executable one. */
  environment?: DomainEnvironment;
  /** world.yaml text (validated by the world loader, not here). */
  worldText?: string;
  documents: SourceDocument[];
  /** Number of .md files found in docs/, loadable or not. */
  documentFiles: number;
  issues: FoundryIssue[];
}

/** A YAML parse issue's code in this file: an alias bomb keeps its own code, other syntax faults get `code`. */
function syntaxCode(issue: FoundryIssue, code: string): string {
  return issue.code === "YAML_ALIAS_LIMIT" ? issue.code : code;
}

function loadCard(text: string, file: string, issues: FoundryIssue[]): { card: DomainCard; environment: DomainEnvironment } | undefined {
  const parsed = parseYaml(text, file);
  issues.push(...parsed.issues.map((i) => ({ ...i, code: syntaxCode(i, "CARD_SYNTAX") })));
  if (!parsed.source) return undefined;
  const r = validateAgainst(DomainCardSource, parsed.source.data, { file, code: "CARD_INVALID", lineOf: parsed.source.lineOf });
  if (!r.ok) {
    issues.push(...r.issues.map((i) => (/^required key '.*' is missing$/.test(i.message) ? { ...i, code: "CARD_MISSING_KEY" } : i)));
    return undefined;
  }
  const { environment, ...card } = r.value;
  return { card, environment: environment ?? "executable" };
}

function frontMatterIssueCode(message: string): string {
  if (/^required key '.*' is missing$/.test(message)) return "DOC_MISSING_KEY";
  if (message.startsWith("effective_to is before")) return "DOC_EFFECTIVE_RANGE";
  return "DOC_FRONT_MATTER_INVALID";
}

/**
 * Load a domain folder: the card, and every document's front matter. Problems in one document never
 * stop the others; every problem is an issue with its file and line.
 */
export function loadDomain(root: string): LoadedDomain {
  const files = readDomainFiles(root);
  const out: LoadedDomain = { root, documents: [], documentFiles: files.docFiles, issues: [...files.issues] };
  if (files.card) {
    const loaded = loadCard(files.card.text, files.card.rel, out.issues);
    if (loaded) {
      const card = loaded.card;
      out.card = card;
      out.environment = loaded.environment;
      out.cardFile = files.card.rel;
      const folder = basename(root.replace(/[/\\]+$/, ""));
      if (card.id !== folder) {
        out.issues.push({ code: "CARD_ID_MISMATCH", message: `card id differs from the folder name '${folder}'`, file: files.card.rel, line: 1, path: "id", value: card.id });
      }
    }
  }
  if (files.world) out.worldText = files.world.text;
  // A simulated-only domain has no world.yaml by design (one beside the card is check-sources' SIMULATED_WITH_WORLD).
  if (out.environment === "simulated") out.issues = out.issues.filter((i) => !(i.code === "DOMAIN_MISSING_FILE" && i.file === "world.yaml"));

  for (const f of files.docs) {
    const split = splitFrontMatter(f.text);
    if (split.unterminated) {
      out.issues.push({ code: "DOC_FRONT_MATTER_SYNTAX", message: "front matter has no closing `---`", file: f.rel, line: 1 });
      continue;
    }
    if (split.frontMatter === null) {
      out.issues.push({ code: "DOC_NO_FRONT_MATTER", message: "document does not start with a `---` front matter block", file: f.rel, line: 1 });
      continue;
    }
    const parsed = parseYaml(split.frontMatter, f.rel, split.frontMatterLine - 1);
    if (!parsed.source) {
      // The YAML parser can report one fault twice (same line, same words): report it once.
      const seen = new Set<string>();
      for (const i of parsed.issues) {
        const key = `${i.line}\u0000${i.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        out.issues.push({ ...i, code: syntaxCode(i, "DOC_FRONT_MATTER_SYNTAX") });
      }
      continue;
    }
    const data = parsed.source.data;
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      out.issues.push({ code: "DOC_FRONT_MATTER_SYNTAX", message: "front matter must be a YAML mapping", file: f.rel, line: split.frontMatterLine, value: data });
      continue;
    }
    const r = validateAgainst(DocumentFrontMatter, data, { file: f.rel, lineOf: parsed.source.lineOf });
    if (!r.ok) {
      for (const i of r.issues) {
        const code = frontMatterIssueCode(i.message);
        const hint = i.path === "version" && typeof i.value === "number" ? " (quote the version: version: \"" + String(i.value) + "\")" : "";
        out.issues.push({ ...i, code, message: i.message + hint });
      }
      continue;
    }
    if (split.body.trim() === "") {
      out.issues.push({ code: "DOC_EMPTY", message: "document has no text after its front matter", file: f.rel, line: split.bodyLine });
      continue;
    }
    out.documents.push({ file: f.rel, meta: r.value, body: split.body, bodyLine: split.bodyLine, text: f.text });
  }
  out.issues.push(...crossDocumentIssues(out.documents, (doc, key) => {
    const parsed = parseYaml(splitFrontMatter(doc.text).frontMatter ?? "", doc.file, 1);
    return parsed.source?.lineOf([key]) ?? 2;
  }));
  return out;
}

/** Issues that involve several documents: duplicate ids and versions, unknown, self, circular or unlinked supersedes. */
function crossDocumentIssues(docs: SourceDocument[], lineOf: (doc: SourceDocument, key: string) => number): FoundryIssue[] {
  const issues: FoundryIssue[] = [];
  const byId = new Map<string, SourceDocument[]>();
  for (const d of docs) byId.set(d.meta.id, [...(byId.get(d.meta.id) ?? []), d]);
  const exists = (ref: string): boolean => {
    const [id, version] = ref.split("@");
    const list = byId.get(id ?? "") ?? [];
    return version === undefined ? list.length > 0 : list.some((d) => d.meta.version === version);
  };
  for (const d of docs) {
    for (const ref of d.meta.supersedes) {
      if (!exists(ref)) {
        issues.push({ code: "DOC_SUPERSEDES_UNKNOWN", message: `supersedes '${ref}', which is not a document of this domain`, file: d.file, line: lineOf(d, "supersedes"), path: "supersedes", value: ref });
      }
    }
  }
  issues.push(...supersessionIssues(docs, byId, lineOf));
  for (const [id, list] of byId) {
    if (list.length < 2) continue;
    const seen = new Map<string, SourceDocument>();
    for (const d of list) {
      const prev = seen.get(d.meta.version);
      if (prev) {
        issues.push({ code: "DOC_DUPLICATE_VERSION", message: `id '${id}' version ${d.meta.version} is also claimed by ${prev.file}`, file: d.file, line: lineOf(d, "version"), path: "version", value: d.meta.version });
      } else seen.set(d.meta.version, d);
    }
    // Same id, different versions: the versions must be linked by `supersedes`, or they are two documents that collide.
    const versions = [...seen.values()];
    // Only one distinct version: the clash is the duplicate version reported above.
    if (versions.length < 2) continue;
    for (const d of versions) {
      const linked = versions.some(
        (o) => o !== d && (o.meta.supersedes.includes(`${id}@${d.meta.version}`) || d.meta.supersedes.includes(`${id}@${o.meta.version}`) || o.meta.supersedes.includes(id) || d.meta.supersedes.includes(id)),
      );
      if (!linked) {
        const other = versions.find((o) => o !== d) as SourceDocument;
        issues.push({ code: "DOC_DUPLICATE_ID", message: `id '${id}' is also used by ${other.file}, and neither version supersedes the other`, file: d.file, line: lineOf(d, "id"), path: "id", value: id });
      }
    }
  }
  return issues;
}

const versionName = (d: SourceDocument): string => `${d.meta.id}@${d.meta.version}`;

/** `w` is newer than `d` (later `effective_from`, then higher version): how a bare own id is read. */
function isNewer(w: SourceDocument, d: SourceDocument): boolean {
  return w.meta.effective_from > d.meta.effective_from || (w.meta.effective_from === d.meta.effective_from && compareVersions(w.meta.version, d.meta.version) > 0);
}

/**
 * A version that supersedes itself, and versions that supersede each other in a circle (A
 * supersedes B supersedes A): either leaves no version that is in force. References are read as
 * rule selection reads them: `id@version` is that version; a bare `id` is every version of that
 * id, and of the document's own id only the older versions.
 */
function supersessionIssues(docs: SourceDocument[], byId: Map<string, SourceDocument[]>, lineOf: (doc: SourceDocument, key: string) => number): FoundryIssue[] {
  const issues: FoundryIssue[] = [];
  const edges = new Map<SourceDocument, SourceDocument[]>();
  for (const d of docs) {
    const out = new Set<SourceDocument>();
    for (const ref of d.meta.supersedes) {
      const [id, version] = ref.split("@") as [string, string | undefined];
      if (version !== undefined && ref === versionName(d)) {
        issues.push({ code: "DOC_SUPERSEDES_SELF", message: `${ref} supersedes itself; name the version it replaces`, file: d.file, line: lineOf(d, "supersedes"), path: "supersedes", value: ref });
        continue;
      }
      for (const o of byId.get(id) ?? []) {
        if (o === d || (version !== undefined && o.meta.version !== version)) continue;
        if (version === undefined && o.meta.id === d.meta.id && !isNewer(d, o)) continue;
        out.add(o);
      }
    }
    edges.set(d, [...out]);
  }
  // Each cycle once, reported at its first member in file order, naming the whole circle.
  const inCycle = new Set<SourceDocument>();
  for (const start of [...docs].sort((a, b) => a.file.localeCompare(b.file))) {
    if (inCycle.has(start)) continue;
    const cycle = cycleThrough(start, (n) => edges.get(n) ?? []);
    if (!cycle) continue;
    cycle.forEach((c) => inCycle.add(c));
    const names = [...cycle, start].map(versionName);
    issues.push({ code: "DOC_SUPERSEDES_CYCLE", message: `versions supersede each other in a circle (${names.join(" → ")}): none of them can be in force`, file: start.file, line: lineOf(start, "supersedes"), path: "supersedes", value: names });
  }
  return issues;
}

/** A path of documents from `start` back to `start` along `edges` (start first), or null. */
function cycleThrough(start: SourceDocument, edges: (d: SourceDocument) => SourceDocument[]): SourceDocument[] | null {
  const seen = new Set<SourceDocument>();
  const path: SourceDocument[] = [];
  const walk = (n: SourceDocument): boolean => {
    path.push(n);
    for (const m of edges(n)) {
      if (m === start) return true;
      if (!seen.has(m)) {
        seen.add(m);
        if (walk(m)) return true;
      }
    }
    path.pop();
    return false;
  };
  return walk(start) ? path : null;
}
