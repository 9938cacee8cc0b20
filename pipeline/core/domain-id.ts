import { FoundryError } from "./errors.js";

/**
 * Domain ids name folders (`sources/<id>/`, `sop/<id>/`, `generated/<id>/`, `domains/<id>/` in a
 * release), so an id is a single path segment by construction: lowercase letters, digits, '-' or
 * '_', starting with a letter or digit. Nothing like `..`, `a/b` or an absolute path can pass.
 */
export const DOMAIN_ID = /^[a-z0-9][a-z0-9_-]*$/;

/** Whether `id` is a valid domain id. */
export function isDomainId(id: string): boolean {
  return DOMAIN_ID.test(id);
}

/** Return `id` when it is a valid domain id; otherwise a USAGE error (exit 2) naming it and `where` it came from. */
export function checkDomainId(id: string, where: string): string {
  if (!isDomainId(id)) {
    throw new FoundryError("USAGE", `'${id}' is not a domain id: use lowercase letters, digits, '-' or '_' (a domain id is a folder name, never a path)`, { path: where }, id);
  }
  return id;
}

/** Parse a comma-separated list of domain ids (`--domains a,b`): each checked, none listed twice. */
export function parseDomainList(text: string, where: string): string[] {
  const ids = text.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  return checkDomainIds(ids, where);
}

/** Check a list of domain ids: each valid, none listed twice. */
export function checkDomainIds(ids: readonly string[], where: string): string[] {
  const seen = new Set<string>();
  for (const id of ids) {
    checkDomainId(id, where);
    if (seen.has(id)) throw new FoundryError("USAGE", `domain '${id}' is listed twice`, { path: where }, id);
    seen.add(id);
  }
  return [...ids];
}
