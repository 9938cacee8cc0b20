import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildDomainContext, loadValidDomain } from "../../pipeline/build/load-context.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { DeterministicTaskDesigner } from "../../pipeline/agents/task-designer/deterministic.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { withDocumentReads } from "../../pipeline/agents/plan/document-reads.js";
import { fromReferencePlan } from "../../pipeline/agents/plan/actions.js";
import { WorldIndex } from "../../pipeline/agents/plan/world-index.js";

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
    const r = await new DeterministicTaskDesigner().design(ctx, 0, new RandomStream(7).fork("task-slot/0"));
    if (!r.ok) throw new Error(r.reason);
    const rule = { id: "R-FAQ", clause: { document: "cancellation-faq", clause: "FAQ-1" }, kind: "precondition" as const, description: "test rule" };
    const world = { ...ctx.world, rules: [...ctx.world.rules, rule], operations: ctx.world.operations.map((o) => (o.name === "release_payment" ? { ...o, rules: [...o.rules, "R-FAQ"] } : o)) };
    const withRule = { ...ctx, world };
    const index = new WorldIndex(world);
    const plain = fromReferencePlan(r.task.reference_plan).filter((a) => !(a.type === "call" && a.operation === "read_document"));
    const units = ctx.sop.workflows.filter((w) => r.task.workflows.includes(w.id)).map((workflow) => ({ workflow }) as never);
    const out = withDocumentReads(withRule, index, units, r.task.customer_id, plain);
    const faq = ctx.sop.documents.find((d) => d.id === "cancellation-faq")!;
    expect(out.map((a) => (a.type === "call" ? `${a.step} ${a.operation}${a.operation === "read_document" ? ` ${String(a.args.id)}@${String(a.args.version)}` : ""}` : `${a.step} ${a.type}`))).toEqual([
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
