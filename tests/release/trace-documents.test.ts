import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Trace } from "../../pipeline/schemas/index.js";
import { sha256, stableJson } from "../../pipeline/core/canonical-json.js";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { auditRelease } from "../../validation/audit/audit-release.js";
import { manifestRootHash } from "../../validation/audit/root-hash.js";
import { compactTrace, DOCUMENT_REF, expandTrace } from "../../validation/audit/trace-documents.js";
import { cleanupTemp, writableCopy } from "./helpers.js";

const RELEASE = join(process.cwd(), "generated", "releases", "sample", "1.7.0");
const GOLDEN = "domains/fx-treasury/golden/fx-treasury-001.json";
afterAll(cleanupTemp);

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Trace;
const reads = (t: Trace) => t.events.filter((e) => e.kind === "tool_call" && e.name === "read_document");

describe("trace files hold read_document answers by reference", () => {
  it("every released golden trace reads back as the world answers it (the audit replays each and compares every result), and its file holds references, not documents", () => {
    const release = loadEvalRelease(RELEASE);
    const tasks = (JSON.parse(readFileSync(join(RELEASE, "manifest.json"), "utf8")) as { counts: { tasks: number } }).counts.tasks;
    expect(release.tasks).toHaveLength(tasks);
    let refs = 0;
    for (const t of release.tasks) {
      const stored = readJson(join(RELEASE, "domains", t.domain.id, "golden", `${t.task.id}.json`));
      for (const e of reads(stored)) {
        if (e.status !== "executed") continue;
        expect(Object.keys(e.result as object)).toEqual([DOCUMENT_REF]);
        refs++;
      }
      // Read back, the answer is the document version the call asked for, whole.
      for (const e of reads(t.golden).filter((x) => x.status === "executed")) expect(e.result).toMatchObject({ id: (e.args as { id: string }).id, text: expect.any(String) });
    }
    expect(refs).toBeGreaterThan(100);
    // Replay (pipeline/world/replay.ts) compares each recorded result with the runtime's own answer.
    const audit = auditRelease(RELEASE);
    expect([audit.ok, audit.golden_passed, audit.mutants.killed, audit.mutants.total]).toEqual([true, tasks, audit.mutants.total, audit.mutants.total]);
  }, 240_000);

  it("an answer that is not exactly the document version (a degraded one) is stored as it was", () => {
    const release = loadEvalRelease(RELEASE);
    const t = release.tasks.find((x) => reads(x.golden).length > 0)!;
    const first = reads(t.golden)[0]!;
    const degraded = { ...t.golden, events: t.golden.events.map((e) => (e === first ? { ...e, result: { ...(e.result as object), text: "(truncated)" } } : e)) };
    const compact = compactTrace(degraded, t.domain.documents);
    expect(compact.events.find((e) => e.index === first.index)!.result).toMatchObject({ text: "(truncated)" });
    expect(reads(compact).filter((e) => Object.keys(e.result as object)[0] === DOCUMENT_REF)).toHaveLength(reads(t.golden).filter((e) => e.status === "executed").length - 1);
    expect(expandTrace(compact, t.domain.documents)).toEqual(degraded);
  });

  it("the audit refuses a trace whose reference names a document version the release does not hold, naming the file and the event", () => {
    const copy = writableCopy(RELEASE);
    const trace = readJson(join(copy, GOLDEN));
    const at = reads(trace)[0]!;
    (at.result as Record<string, string>)[DOCUMENT_REF] = "no-such-document@9.9";
    const text = stableJson(trace);
    writeFileSync(join(copy, GOLDEN), text);
    const manifest = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8")) as { files: Record<string, string>; root_hash: string };
    manifest.files[GOLDEN] = sha256(Buffer.from(text, "utf8"));
    manifest.root_hash = manifestRootHash(manifest.files);
    writeFileSync(join(copy, "manifest.json"), stableJson(manifest));
    const report = auditRelease(copy);
    expect(report.hash_failures).toEqual([]);
    expect(report.ok).toBe(false);
    expect(report.problems).toContainEqual({ file: GOLDEN, reason: `event ${at.index} reads no-such-document@9.9, which the release's knowledge base (documents.json) does not hold` });
  }, 180_000);
});
