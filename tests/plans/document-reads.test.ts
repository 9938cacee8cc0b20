import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { RandomStream } from "../../pipeline/core/random.js";

function context() {
  const dir = join(mkdtempSync(join(tmpdir(), "doc-reads-")), "acme-payments");
  cpSync("tests/fixtures/sources/acme-payments", dir, { recursive: true });
  return buildDomainContext(dir, extractLoadedSync(loadValidDomain(dir)).sop);
}

describe("golden traces consult the documents they follow", () => {
  it("the plan reads the procedure's version in force (4.2, not the superseded 4.1) once, before the workflow's first action", async () => {
    const ctx = context();
    const r = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(7).fork("task-slot/0"));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const reads = r.task.reference_plan.filter((p) => p.operation === "read_document");
    expect(reads.map((p) => p.args)).toEqual([{ id: "payment-release-procedure", version: "4.2" }]);
    expect(r.task.reference_plan[0]?.operation).toBe("read_document");
  });

  it("a rule stated in another document is read before the first call it governs, ahead of that call's questions", async () => {
    const ctx = context();
    const rule = { id: "R-FAQ", clause: { document: "cancellation-faq", clause: "FAQ-1" }, kind: "precondition" as const, description: "test rule" };
    const world = { ...ctx.world, rules: [...ctx.world.rules, rule], operations: ctx.world.operations.map((o) => (o.name === "release_payment" ? { ...o, rules: [...o.rules, "R-FAQ"] } : o)) };
    const r = await new DeterministicTaskDesigner().design({ ...ctx, world }, 0, new RandomStream(7).fork("task-slot/0"));
    if (!r.ok) throw new Error(r.reason);
    const faq = ctx.sop.documents.find((d) => d.id === "cancellation-faq")!;
    expect(r.task.reference_plan.map((p) => `${p.sop_step} ${p.operation}${p.operation === "read_document" ? ` ${String(p.args.id)}@${String(p.args.version)}` : ""}`)).toEqual([
      "s1 read_document payment-release-procedure@4.2",
      "s1 get_payment",
      "s3 propose_release",
      "s4 approve",
      `s5 read_document cancellation-faq@${faq.version}`,
      "s5 ask",
      "s5 release_payment",
    ]);
  });
});
