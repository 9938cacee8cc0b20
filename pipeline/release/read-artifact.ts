import { existsSync, readFileSync } from "node:fs";
import type { z } from "zod";
import { FoundryError } from "../core/errors.js";
import { validateAgainst } from "../core/schema-issues.js";
import { parseYaml } from "../core/yaml-source.js";

/** Read and schema-check a JSON artifact; a missing, unparsable or invalid file is a FoundryError naming it. */
export function readJsonArtifact<T extends z.ZodType>(file: string, schema: T, what: string): z.infer<T> {
  if (!existsSync(file)) throw new FoundryError("RELEASE_INPUT_MISSING", `${what} is missing`, { file });
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FoundryError("RELEASE_INPUT_INVALID", `${what} is not valid JSON: ${(e as Error).message}`, { file });
  }
  return checked(schema, data, file, what);
}

/** Read and schema-check a YAML artifact (the domain card). */
export function readYamlArtifact<T extends z.ZodType>(file: string, schema: T, what: string): z.infer<T> {
  if (!existsSync(file)) throw new FoundryError("RELEASE_INPUT_MISSING", `${what} is missing`, { file });
  const parsed = parseYaml(readFileSync(file, "utf8"), file);
  const first = parsed.issues[0];
  if (!parsed.source) throw new FoundryError("RELEASE_INPUT_INVALID", `${what} is not valid YAML: ${first?.message ?? "unreadable"}`, { file, line: first?.line });
  return checked(schema, parsed.source.data, file, what, parsed.source.lineOf);
}

function checked<T extends z.ZodType>(schema: T, data: unknown, file: string, what: string, lineOf?: (p: ReadonlyArray<PropertyKey>) => number | undefined): z.infer<T> {
  const r = validateAgainst(schema, data, { file, code: "RELEASE_INPUT_INVALID", ...(lineOf ? { lineOf } : {}) });
  if (r.ok) return r.value;
  const issue = r.issues[0];
  throw new FoundryError("RELEASE_INPUT_INVALID", `${what} does not match its schema: ${issue?.message ?? "invalid"}`, { file, line: issue?.line, path: issue?.path }, issue?.value);
}
