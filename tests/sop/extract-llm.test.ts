import { readFileSync } from "node:fs";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { afterAll, describe, expect, it } from "vitest";
import { outlineText } from "../../pipeline/sources/ingest.js";
import { loadDomain } from "../../pipeline/sources/load-domain.js";
import { extractDomainSop } from "../../pipeline/sop/extract-domain.js";
import { extractLoadedSync } from "../../pipeline/sop/extract-loaded.js";
import { extractWithLlm } from "../../pipeline/sop/extract-llm.js";
import { chunkDocument } from "../../pipeline/sop/llm-chunks.js";
import { messageText } from "../../pipeline/llm/structured-output.js";
import { cleanDomains, makeDomain } from "./domain-helper.js";

afterAll(cleanDomains);

// Lines 8–18 of the file; three sections.
const PROSE = `---
id: zz-prose
title: Refund handling guidance
kind: policy
version: "1"
effective_from: 2026-01-01
---
# Refunds

Refunds are handled by the payments desk. A refund must never exceed the original payment amount.

## Handling a refund request

First look up the payment with get_payment. Then release the refund with release_payment once the client confirms.

## Escalation

Disputed refunds go to the operations manager, who decides within two business days.
`;

const EMPTY = '{"rules": [], "workflows": []}';
const RULES_8_11 = JSON.stringify({
  rules: [
    { clause: null, statement: "A refund must never exceed the original payment amount.", action: "Cap refunds at the original amount.", affected_objects: ["payments", "refund_ledger"], line_start: 10, line_end: 10 },
    { clause: null, statement: "Refunds are handled by the payments desk.", action: "The payments desk handles refunds.", line_start: 10, line_end: 10, uncertain: true },
  ],
  workflows: [],
});
const PROC_12_15 = JSON.stringify({
  rules: [
    { clause: null, statement: "A refund must never exceed the original payment amount.", action: "duplicate of an earlier chunk", line_start: 10, line_end: 10 },
    { clause: null, statement: "Disputed refunds go to the operations manager.", action: "Escalate disputes.", line_start: 14, line_end: 14 },
  ],
  workflows: [
    {
      id: "refund-request",
      title: "Handle a refund request",
      line_start: 12,
      line_end: 14,
      steps: [
        { number: 1, text: "First look up the payment with get_payment.", operation: "get_payment", actor: "agent", line_start: 14, line_end: 14 },
        { number: 2, text: "Then release the refund with release_payment once the client confirms.", operation: "release_refund", actor: "agent", line_start: 14, line_end: 14 },
      ],
      decisions: [{ at_step: 2, question: "Does the client confirm?", branches: [{ when: "the client does not confirm", outcome: "stop", kind: "end", step: null }] }],
    },
  ],
});

/** A scripted model that answers by the chunk it is shown; malformed JSON once for lines 12-15. */
function scripted() {
  const tries = new Map<string, number>();
  const route = (messages: BaseMessage[]) => {
    const task = messages.map(messageText).find((t) => t.startsWith("Document ")) ?? "";
    const chunk = /^Document (\S+) version \S+ \(.*\), lines (\d+-\d+)/.exec(task);
    const key = `${chunk?.[1]} ${chunk?.[2]}`;
    const n = (tries.get(key) ?? 0) + 1;
    tries.set(key, n);
    if (key === "zz-prose 8-11") return new AIMessage(RULES_8_11);
    if (key === "zz-prose 12-15") return new AIMessage(n === 1 ? '{"rules": [' : `\`\`\`json\n${PROC_12_15}\n\`\`\``);
    if (key === "zz-prose 16-18") return new AIMessage("REFUSE: I cannot help with that.");
    return new AIMessage(EMPTY);
  };
  const model = fakeModel();
  for (let i = 0; i < 12; i++) model.respond(route);
  return { model, tries };
}

describe("chunking", () => {
  it("cuts along sections, within the size bound, with file line numbers", () => {
    const chunks = chunkDocument(PROSE, outlineText(PROSE), 200);
    expect(chunks.map((c) => [c.line_start, c.line_end])).toEqual([
      [8, 11],
      [12, 15],
      [16, 18],
    ]);
    expect(chunks.every((c) => c.numbered.length <= 200)).toBe(true);
    expect(chunks[2]?.numbered).toBe("16: ## Escalation\n17: \n18: Disputed refunds go to the operations manager, who decides within two business days.");
    expect(chunkDocument(PROSE, outlineText(PROSE), 8000).map((c) => [c.line_start, c.line_end])).toEqual([[8, 18]]);
  });

  it("cuts a section longer than the bound at blank lines", () => {
    const long = `# One\n\n${Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${"word ".repeat(12)}`).join("\n\n")}\n`;
    const chunks = chunkDocument(long, outlineText(long), 200);
    expect(chunks.map((c) => [c.line_start, c.line_end])).toEqual([
      [1, 6],
      [7, 10],
      [11, 13],
    ]);
    expect(chunks.map((c) => c.numbered.length <= 200)).toEqual([true, true, true]);
  });
});

describe("LLM SOP extraction", () => {
  const dir = makeDomain({ "docs/zz-prose.md": PROSE });

  it("reads only prose documents, retries bad JSON, continues after a refusal, merges, dedupes and flags", async () => {
    const det = extractLoadedSync(loadDomain(dir));
    const { model, tries } = scripted();
    const out = await extractWithLlm(det, { model, maxChunkChars: 200, concurrency: 2 });
    expect([...tries.entries()].sort()).toEqual([
      ["cancellation-faq 10-11", 1],
      ["cancellation-faq 8-9", 1],
      ["zz-prose 12-15", 2],
      ["zz-prose 16-18", 1],
      ["zz-prose 8-11", 1],
    ]);
    expect(out.rules.map((r) => [r.id, r.statement, r.affected_objects, r.status, r.provenance])).toEqual([
      ["zz-prose:L10", "A refund must never exceed the original payment amount.", ["payments"], "current", { document: "zz-prose", version: "1", line_start: 10, line_end: 10 }],
      ["zz-prose:L10.2", "Refunds are handled by the payments desk.", [], "current", { document: "zz-prose", version: "1", line_start: 10, line_end: 10 }],
      ["zz-prose:L12", "Disputed refunds go to the operations manager.", [], "current", { document: "zz-prose", version: "1", line_start: 12, line_end: 15 }],
    ]);
    const wf = out.workflows[0];
    expect(out.workflows.map((w) => w.id)).toEqual(["refund-request"]);
    expect(wf?.steps.map((s) => [s.id, s.operation, s.requires, s.provenance.line_start])).toEqual([
      ["s1", "get_payment", [], 14],
      ["s2", null, ["s1"], 14],
    ]);
    expect(wf?.decisions[0]?.branches).toEqual([{ when: "the client does not confirm", condition: null, goto: null, outcome: "stop", rule: null, operations: [] }]);
    expect(wf?.transitions.filter((t) => t.kind !== "next")).toEqual([{ from: "s2", to: null, kind: "branch", when: "the client does not confirm" }]);
    expect(wf?.resources).toEqual(["payments"]);
    expect(out.problems.map((p) => [p.code, p.line, p.severity])).toEqual([
      ["SOP_LLM_UNKNOWN_OBJECT", 10, "review"],
      ["SOP_LLM_UNCERTAIN", 10, "review"],
      ["SOP_LLM_PROVENANCE", 12, "review"],
      ["SOP_LLM_UNKNOWN_OPERATION", 14, "review"],
      ["SOP_LLM_FAILED", 16, "error"],
    ]);
    expect(out.problems[4]?.message).toBe("lines 16-18 were not extracted (refusal after 1 attempt): docs/zz-prose.md lines 16-18: the model refused: I cannot help with that.");
  });

  it("extractDomainSop merges the model's findings into the deterministic SOP", async () => {
    const { model } = scripted();
    const sop = await extractDomainSop(dir, { strategy: "llm", model, llm: { maxChunkChars: 200 } });
    expect(sop.strategy).toBe("llm");
    expect(sop.workflows.map((w) => w.id)).toEqual(["payment-release", "refund-request"]);
    expect(sop.rules.filter((r) => r.document === "zz-prose").map((r) => r.id)).toEqual(["zz-prose:L10", "zz-prose:L10.2", "zz-prose:L12"]);
    // The refused chunk is an error: the document was only partly read.
    expect(sop.problems.filter((p) => p.severity === "error").map((p) => p.code)).toEqual(["SOP_LLM_FAILED"]);
    expect(sop.problems).toHaveLength(5);
  });

  it("marks a chunk failed after a timeout and keeps the others", async () => {
    let calls = 0;
    const model = {
      invoke: async (messages: BaseMessage[]) => {
        calls++;
        const text = messages.map(messageText).join("\n");
        if (text.includes("lines 12-15")) return new Promise<never>(() => {});
        return new AIMessage(text.includes("zz-prose version 1 (\"Refund handling guidance\"), lines 8-11") ? RULES_8_11 : EMPTY);
      },
    };
    const det = extractLoadedSync(loadDomain(dir));
    const out = await extractWithLlm(det, { model: model as never, maxChunkChars: 200, timeoutMs: 30, maxAttempts: 1 });
    expect(calls).toBe(5);
    expect(out.rules.map((r) => r.id)).toEqual(["zz-prose:L10", "zz-prose:L10.2"]);
    expect(out.problems.filter((p) => p.code === "SOP_LLM_FAILED").map((p) => p.message)).toEqual([
      "lines 12-15 were not extracted (timeout after 1 attempt): docs/zz-prose.md lines 12-15: no answer within 30 ms",
    ]);
  });
});
