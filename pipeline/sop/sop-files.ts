import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { stableJson } from "../core/canonical-json.js";
import { FoundryError } from "../core/errors.js";
import { formatPath } from "../core/schema-issues.js";
import { Sop, SopDocument, SopProblem, SopRule, SopWorkflow } from "../schemas/sop.js";

/** The review files of `sop/<domain>/`, besides `.hashes.json`. */
export const SOP_FILES = { meta: "meta.json", documents: "documents.json", rules: "rules.json", problems: "problems.json", workflows: "workflows" } as const;

const SopMeta = Sop.pick({ domain: true, strategy: true, sources_hash: true }).strict();

/** An SOP as diff-friendly files (sorted keys, two-space indent): path relative to `sop/<domain>/` → text. */
export function renderSopFiles(sop: Sop): Map<string, string> {
  const files = new Map<string, string>();
  files.set(SOP_FILES.meta, stableJson({ domain: sop.domain, strategy: sop.strategy, sources_hash: sop.sources_hash }));
  files.set(SOP_FILES.documents, stableJson(sop.documents));
  files.set(SOP_FILES.rules, stableJson(sop.rules));
  files.set(SOP_FILES.problems, stableJson(sop.problems));
  for (const w of sop.workflows) files.set(`${SOP_FILES.workflows}/${w.id}.json`, stableJson(w));
  return files;
}

function readJson<T extends z.ZodType>(dir: string, rel: string, schema: T): z.infer<T> {
  const file = join(dir, rel);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FoundryError("SOP_FILE_INVALID", `cannot read JSON: ${(e as Error).message}`, { file });
  }
  const r = schema.safeParse(data);
  if (!r.success) {
    const first = r.error.issues[0];
    throw new FoundryError("SOP_FILE_INVALID", first?.message ?? "invalid", { file, path: formatPath((first?.path ?? []) as PropertyKey[]) });
  }
  return r.data;
}

/** Read `sop/<domain>/` back (as a person may have edited it), each file checked against its schema. */
export function readSopDir(dir: string): Sop {
  if (!existsSync(join(dir, SOP_FILES.meta))) throw new FoundryError("SOP_NOT_FOUND", "no extracted SOP here: run `synth sop <domain>` first", { file: dir });
  const meta = readJson(dir, SOP_FILES.meta, SopMeta);
  const wfDir = join(dir, SOP_FILES.workflows);
  const names = existsSync(wfDir) ? readdirSync(wfDir).filter((n) => n.endsWith(".json")).sort() : [];
  return {
    ...meta,
    documents: existsSync(join(dir, SOP_FILES.documents)) ? readJson(dir, SOP_FILES.documents, z.array(SopDocument)) : [],
    rules: readJson(dir, SOP_FILES.rules, z.array(SopRule)),
    problems: readJson(dir, SOP_FILES.problems, z.array(SopProblem)),
    workflows: names.map((n) => readJson(dir, `${SOP_FILES.workflows}/${n}`, SopWorkflow)),
  };
}
