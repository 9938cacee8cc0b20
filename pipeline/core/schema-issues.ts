import type { z } from "zod";
import type { FoundryIssue } from "./errors.js";

/** `a.b[2].c` from a zod issue path. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const p of path) {
    if (typeof p === "number") out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

function valueAt(data: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let cur: unknown = data;
  for (const p of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[p];
  }
  return cur;
}

/**
 * Validate `data` against `schema`; every violation becomes an issue naming the file, the line
 * (when `lineOf` knows it), the field path and the bad value.
 */
export function validateAgainst<T extends z.ZodType>(
  schema: T,
  data: unknown,
  opts: { file?: string; code?: string; lineOf?: (path: ReadonlyArray<PropertyKey>) => number | undefined; pathPrefix?: string } = {},
): { ok: true; value: z.infer<T> } | { ok: false; issues: FoundryIssue[] } {
  const parsed = schema.safeParse(data);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issues = parsed.error.issues.map((zi): FoundryIssue => {
    const zpath = zi.path as PropertyKey[];
    let message = zi.message;
    let path = formatPath(zpath);
    if (zi.code === "unrecognized_keys") {
      const keys = (zi as { keys?: string[] }).keys ?? [];
      message = `unknown key${keys.length > 1 ? "s" : ""} ${keys.map((k) => `'${k}'`).join(", ")}`;
      if (keys.length === 1) path = formatPath([...zpath, keys[0] as string]);
    }
    const value = valueAt(data, zpath);
    const parent = valueAt(data, zpath.slice(0, -1));
    const key = zpath[zpath.length - 1];
    const missing = key !== undefined && parent !== null && typeof parent === "object" && !Array.isArray(parent) && !(key in (parent as object));
    if (missing && zi.code !== "unrecognized_keys") message = `required key '${String(key)}' is missing`;
    const line = opts.lineOf?.(zi.code === "unrecognized_keys" && (zi as { keys?: string[] }).keys?.length === 1 ? [...zpath, ((zi as { keys?: string[] }).keys as string[])[0] as string] : zpath);
    const fullPath = opts.pathPrefix ? (path ? `${opts.pathPrefix}.${path}` : opts.pathPrefix) : path;
    const issue: FoundryIssue = { code: opts.code ?? "SCHEMA", message };
    if (opts.file !== undefined) issue.file = opts.file;
    if (line !== undefined) issue.line = line;
    if (fullPath) issue.path = fullPath;
    if (value !== undefined && zi.code !== "unrecognized_keys" && (typeof value !== "object" || value === null)) issue.value = value;
    return issue;
  });
  return { ok: false, issues };
}
