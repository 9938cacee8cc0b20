import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const RELEASES = join(ROOT, SAMPLE_RELEASE.root);
/** The newest committed sample release, as `sample@X.Y.Z`, and its folder. */
export const VERSION = latestVersion(RELEASES, SAMPLE_RELEASE.name) as string;
export const SAMPLE = `sample@${VERSION}`;
export const SAMPLE_DIR = join(RELEASES, "sample", VERSION);
