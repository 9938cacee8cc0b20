import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { checkDomain } from "../../pipeline/sources/check-sources.js";
import { DeterministicWorldDrafter, writeDraft } from "../../pipeline/agents/environment-builder/write-draft.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/draft/mooring-desk", import.meta.url));
const EDITED = fileURLToPath(new URL("../fixtures/draft/edited-world.yaml", import.meta.url));

/** Lines inserted plus lines deleted between two texts (longest common subsequence of lines). */
function changedLines(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  const lcs: number[][] = Array.from({ length: x.length + 1 }, () => new Array<number>(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--) for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  return x.length + y.length - 2 * lcs[0]![0]!;
}

describe("a domain of documents and a card only", () => {
  it("builds end to end from its deterministic draft plus the edits its review list asks for (15 changed lines)", async () => {
    const root = mkdtempSync(join(tmpdir(), "draft-build-"));
    const dir = join(root, "sources", "mooring-desk");
    cpSync(FIXTURE, dir, { recursive: true });
    const outcome = await new DeterministicWorldDrafter().draft(dir);
    writeDraft(dir, join(root, "sop"), outcome);
    const draft = readFileSync(join(dir, "world.yaml"), "utf8");
    // Every review item is answered by the edits: rows (W001, W002), the departed precondition (W003), the event left out (W004).
    expect(outcome.review.items.map((i) => `${i.id} ${i.kind}`)).toEqual(["W001 rows", "W002 rows", "W003 precondition", "W004 event"]);
    // The draft alone is a valid world; the designer has no row to work on yet.
    expect(checkDomain(dir).issues).toEqual([]);
    const edited = readFileSync(EDITED, "utf8");
    expect(changedLines(draft, edited)).toBe(15);
    writeFileSync(join(dir, "world.yaml"), edited);
    expect(checkDomain(dir).issues).toEqual([]);
    const built = await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
    expect(built.domains[0]!.released).toBeGreaterThanOrEqual(2);
  }, 180_000);
});
