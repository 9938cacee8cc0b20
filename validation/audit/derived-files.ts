import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { parseYaml } from "../../pipeline/core/yaml-source.js";
import { DocumentFrontMatter, WorldModel } from "../../pipeline/schemas/index.js";
import { splitFrontMatter } from "../../pipeline/sources/split-front-matter.js";
import { knowledgeDocument } from "../../pipeline/sources/knowledge-document.js";
import { parseWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState } from "../../pipeline/world/build-state.js";
import { documentKey } from "./knowledge-document.js";
import { domainFile, domainFiles } from "./release-layout.js";
import type { DomainOwnFiles } from "./parse-release.js";
import type { FileFailure, ReleaseFiles } from "./verify-integrity.js";

function show(v: unknown): string {
  const s = canonicalJson(v) ?? "undefined";
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** The first field in which two JSON values differ, as `path: a vs b`. */
function firstDifference(a: unknown, b: unknown, path = ""): string | null {
  if (canonicalJson(a) === canonicalJson(b)) return null;
  if (a && b && typeof a === "object" && typeof b === "object" && !Array.isArray(a) && !Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
      const d = firstDifference(ra[k], rb[k], path ? `${path}.${k}` : k);
      if (d) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const d = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (d) return d;
    }
  }
  if (typeof a === "string" && typeof b === "string") {
    // Long texts: show where they part, so the message names the changed words.
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    const from = Math.max(0, i - 20);
    return `${path || "(whole value)"} at character ${i}: ${JSON.stringify(a.slice(from, i + 20))} vs ${JSON.stringify(b.slice(from, i + 20))}`;
  }
  return `${path || "(whole value)"}: ${show(a)} vs ${show(b)}`;
}

/** `documents.json` must be what the release's own `docs/*.md` give (front matter fields and body text, per version). */
export function checkDocuments(domain: DomainOwnFiles, contents: ReleaseFiles, problems: FileFailure[]): void {
  const file = domainFiles(domain.id).documents;
  const prefix = domainFile(domain.id, "docs/");
  const derived = new Map<string, unknown>();
  for (const path of [...contents.keys()].filter((p) => p.startsWith(prefix) && p.endsWith(".md")).sort()) {
    const text = (contents.get(path) as Buffer).toString("utf8");
    const split = splitFrontMatter(text);
    const parsed = split.frontMatter === null ? null : parseYaml(split.frontMatter, path, split.frontMatterLine - 1).source;
    const meta = parsed ? DocumentFrontMatter.safeParse(parsed.data) : null;
    if (!meta?.success) {
      problems.push({ file: path, reason: "front matter does not parse as a document's front matter, so documents.json cannot be checked against it" });
      continue;
    }
    const doc = knowledgeDocument({ file: path, meta: meta.data, body: split.body, bodyLine: split.bodyLine, text });
    derived.set(documentKey(doc), doc);
  }
  const shipped = new Map(domain.documents.map((d) => [documentKey(d), d as unknown]));
  for (const key of [...new Set([...derived.keys(), ...shipped.keys()])].sort()) {
    const a = shipped.get(key);
    const b = derived.get(key);
    if (a === undefined) problems.push({ file, reason: `lacks ${key}, which the documents in docs/ hold` });
    else if (b === undefined) problems.push({ file, reason: `holds ${key}, which no document in docs/ is` });
    else {
      const d = firstDifference(a, b);
      if (d) problems.push({ file, reason: `${key} differs from its document in docs/: ${d} (documents.json vs docs/)` });
    }
  }
}

/** `world.json` must be the world model `world.yaml` gives, and `initial-state.sqlite` the state that world and the card's seed build. */
function checkWorld(domain: DomainOwnFiles, contents: ReleaseFiles, problems: FileFailure[]): void {
  const paths = domainFiles(domain.id);
  const source = contents.get(paths.worldSource);
  if (!source) {
    problems.push({ file: paths.worldSource, reason: "required file is missing from the release: world.json cannot be checked against its source" });
    return;
  }
  const parsed = parseWorld(source.toString("utf8"), paths.worldSource);
  if (!parsed.world) {
    problems.push({ file: paths.worldSource, reason: `does not load: ${parsed.problems[0]?.message ?? "invalid world model"}` });
    return;
  }
  const fromYaml = WorldModel.parse(parsed.world);
  if (domain.world) {
    const d = firstDifference(domain.world, fromYaml);
    if (d) {
      problems.push({ file: paths.world, reason: `is not the world model world.yaml gives: ${d} (world.json vs world.yaml)` });
      return;
    }
  }
  if (!domain.card || !domain.state) return;
  const built = buildBaseState(fromYaml, { seed: domain.card.generation.seed, epoch: domain.card.generation.epoch });
  if (!Buffer.from(built.buffer).equals(domain.state)) {
    problems.push({ file: paths.state, reason: `is not the initial state world.yaml builds with seed ${domain.card.generation.seed} (sha256 differs)` });
  }
}

/** Check every derived file of a domain against its source inside the release; each difference names its file. */
export function checkDerivedFiles(domain: DomainOwnFiles, contents: ReleaseFiles, problems: FileFailure[]): void {
  checkDocuments(domain, contents, problems);
  checkWorld(domain, contents, problems);
}
