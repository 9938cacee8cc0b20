import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { StageCache } from "../../pipeline/build/stage-cache.js";
import { clearCodeFingerprints, importClosure } from "../../pipeline/build/code-fingerprint.js";
import { stageFingerprint } from "../../pipeline/build/stage-code.js";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** A copy of the code (pipeline/, validation/) to edit without touching the working tree. */
function codeCopy(): string {
  const root = mkdtempSync(join(tmpdir(), "code-"));
  roots.push(root);
  cpSync("pipeline", join(root, "pipeline"), { recursive: true });
  cpSync("validation", join(root, "validation"), { recursive: true });
  return root;
}

const DETERMINISTIC = { solver: "deterministic", "task-designer": "deterministic", "rubric-writer": "deterministic", "sop-extractor": "deterministic" };

describe("the stage cache's code fingerprint", () => {
  it("a validation change (the mutation operator registry) misses the verify stage's warm cache; an unrelated edit does not", async () => {
    const root = codeCopy();
    const cache = new StageCache(join(root, "cache"), (stage) => stageFingerprint(stage, DETERMINISTIC, root));
    const inputs = { task: { id: "t-1" }, golden: { events: [] }, world: "w" };
    let runs = 0;
    const compute = async () => ({ run: ++runs });
    expect((await cache.through("verify", inputs, compute)).hit).toBe(false);
    expect((await cache.through("verify", inputs, compute)).hit).toBe(true);

    // An edit to a file verify does not run (the release's datasheet): still a hit.
    appendFileSync(join(root, "pipeline/release/datasheet.ts"), "\n// unrelated edit\n");
    clearCodeFingerprints();
    expect((await cache.through("verify", inputs, compute)).hit).toBe(true);

    // The case: the registry of mutation operators changes; the warm verify entry must not be served.
    appendFileSync(join(root, "validation/mutants/registry.ts"), "\n// operator removed\n");
    clearCodeFingerprints();
    const after = await cache.through("verify", inputs, compute);
    expect([after.hit, after.value]).toEqual([false, { run: 2 }]);
  });

  it("follows runtime imports only, into pipeline/ and validation/, and a strategy's module is part of its stage", () => {
    const verify = importClosure(["pipeline/nodes/verify.ts"]);
    expect(verify).toContain("validation/mutants/registry.ts");
    expect(verify).not.toContain("pipeline/release/datasheet.ts");
    // services.ts is imported by every node for its types only... and for `services()`: it is a runtime import.
    expect(verify).toContain("pipeline/build/services.ts");
    const root = codeCopy();
    const before = stageFingerprint("solve", DETERMINISTIC, root);
    appendFileSync(join(root, "pipeline/agents/solver/deterministic.ts"), "\n// solver edit\n");
    clearCodeFingerprints();
    expect(stageFingerprint("solve", DETERMINISTIC, root)).not.toBe(before);
    // The llm solver's module is not what a deterministic solve runs.
    const det = stageFingerprint("solve", DETERMINISTIC, root);
    appendFileSync(join(root, "pipeline/agents/solver/llm.ts"), "\n// llm solver edit\n");
    clearCodeFingerprints();
    expect(stageFingerprint("solve", DETERMINISTIC, root)).toBe(det);
    expect(stageFingerprint("solve", { ...DETERMINISTIC, solver: "openai:gpt-4.1" }, root)).not.toBe(det);
  });
});
