import { chmodSync, cpSync, mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { latestVersion, SAMPLE_RELEASE } from "../../pipeline/build/sample-release.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const RELEASES = join(ROOT, SAMPLE_RELEASE.root);
/** The newest committed sample release, as `sample@X.Y.Z`, and its folder. */
export const VERSION = latestVersion(RELEASES, SAMPLE_RELEASE.name) as string;
export const SAMPLE = `sample@${VERSION}`;
export const SAMPLE_DIR = join(RELEASES, "sample", VERSION);

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) makeWritable(p);
    else chmodSync(p, 0o644);
  }
}

/** A writable copy of the sample release with one golden trace edited (ed-triage-008's pain score, 2 in the release, made 3), and that file's path. */
export function tamperedCopy(): { dir: string; golden: string } {
  const dir = join(mkdtempSync(join(tmpdir(), "show-tamper-")), VERSION);
  cpSync(SAMPLE_DIR, dir, { recursive: true });
  makeWritable(dir);
  const golden = join(dir, "domains", "ed-triage", "golden", "ed-triage-008.json");
  const before = readFileSync(golden, "utf8");
  const after = before.replace('"pain_score": 2', '"pain_score": 3');
  if (after === before) throw new Error("the tamper fixture no longer finds its pain score");
  writeFileSync(golden, after);
  return { dir, golden };
}
