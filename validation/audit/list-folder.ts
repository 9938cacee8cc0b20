import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** What a folder holds, as sorted release-relative POSIX paths. */
export interface FolderListing {
  /** Regular files. */
  files: string[];
  /** Anything else that is not a folder (symbolic links, sockets, devices): never part of a release. */
  others: string[];
}

/**
 * Walk a folder without following symbolic links. Paths are sorted by code unit, the order
 * canonical JSON sorts keys in, so a listing never depends on the order the file system returns.
 */
export function listFolder(root: string): FolderListing {
  const out: FolderListing = { files: [], others: [] };
  const walk = (rel: string) => {
    for (const name of readdirSync(rel ? join(root, rel) : root)) {
      const path = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, path));
      if (st.isDirectory()) walk(path);
      else if (st.isFile()) out.files.push(path);
      else out.others.push(path);
    }
  };
  walk("");
  out.files.sort();
  out.others.sort();
  return out;
}
