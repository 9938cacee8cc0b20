import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** Domain folders under `root` (each subfolder holding a domain.yaml), sorted. */
export function listDomainDirs(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((n) => statSync(join(root, n)).isDirectory() && existsSync(join(root, n, "domain.yaml")))
    .sort()
    .map((n) => join(root, n));
}
