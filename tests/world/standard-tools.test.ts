import { describe, expect, it } from "vitest";
import { openEpisode, fixture } from "./fixture.js";
import type { KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import { agentToolSpecs, customerToolSpecs } from "../../pipeline/world/standard-tools.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";

const scope = { segments: [], regions: [], products: [] };
const DOCS: KnowledgeDocument[] = [
  {
    id: "payment-release-procedure",
    version: "4.1",
    title: "Outgoing Payment Release Procedure",
    kind: "procedure",
    effective_from: "2025-01-01",
    effective_to: "2025-12-31",
    scope,
    text: "- **PAY-3.2** Release before the 15:00 cut-off.\nPayments are released after checks.",
  },
  {
    id: "payment-release-procedure",
    version: "4.2",
    title: "Outgoing Payment Release Procedure",
    kind: "procedure",
    effective_from: "2026-01-01",
    effective_to: null,
    scope,
    text: "- **PAY-3.2** Release before the 16:00 cut-off.\nA payment release needs the approver for large payments.",
  },
  {
    id: "liquidity-policy",
    version: "2",
    title: "Liquidity Policy",
    kind: "policy",
    effective_from: "2026-01-01",
    effective_to: null,
    scope: { segments: ["sme"], regions: [], products: [], note: "SME clients only." },
    text: "- **LIQ-2.1** An operating account never falls below its reserve floor.",
  },
];

const agent = (name: string, args: Record<string, unknown>) => ({ name, args, actor: "agent" as const });

describe("documents tools", () => {
  it("searches by keywords, deterministically, showing superseded versions too", () => {
    const e = openEpisode({ documents: DOCS });
    const o = e.invoke(agent("search_documents", { query: "payment release cut-off" }));
    const r = o.result as { total: number; results: Array<{ id: string; version: string; score: number; snippet: string; effective_to: string | null }> };
    expect(r.total).toBe(2);
    expect(r.results.map((x) => [x.id, x.version, x.score, x.effective_to])).toEqual([
      ["payment-release-procedure", "4.2", 66, null],
      ["payment-release-procedure", "4.1", 64, "2025-12-31"],
    ]);
    expect(r.results[0]?.snippet).toBe("- **PAY-3.2** Release before the 16:00 cut-off.");
    expect(e.invoke(agent("search_documents", { query: "reserve floor" })).result).toMatchObject({ total: 1, results: [{ id: "liquidity-policy", scope: { note: "SME clients only." } }] });
    expect(e.invoke(agent("search_documents", { query: "of the" })).result).toEqual({ error: { code: "invalid_argument", message: "query has no searchable words", field: "query" } });
    e.close();
  });

  it("reads a document by id (latest in force by default) or by version, never by path", () => {
    const e = openEpisode({ documents: DOCS });
    const latest = e.invoke(agent("read_document", { id: "payment-release-procedure" })).result as Record<string, unknown>;
    expect([latest.version, latest.versions]).toEqual([
      "4.2",
      [
        { version: "4.1", effective_from: "2025-01-01", effective_to: "2025-12-31" },
        { version: "4.2", effective_from: "2026-01-01", effective_to: null },
      ],
    ]);
    expect((e.invoke(agent("read_document", { id: "payment-release-procedure", version: "4.1" })).result as Record<string, unknown>).text).toContain("15:00");
    expect(e.invoke(agent("read_document", { id: "docs/liquidity-policy.md" })).result).toEqual({
      error: { code: "not_found", message: 'no document with id "docs/liquidity-policy.md"', field: "id" },
    });
    expect(e.invoke(agent("read_document", { id: "liquidity-policy", version: "9" })).reason).toBe('version: document "liquidity-policy" has no version "9"; versions: 2');
    expect(e.events.map((ev) => [ev.kind, ev.name, ev.status])).toEqual([
      ["tool_call", "read_document", "executed"],
      ["tool_call", "read_document", "executed"],
      ["tool_call", "read_document", "errored"],
      ["tool_call", "read_document", "errored"],
    ]);
    e.close();
  });
});

describe("discovery tools", () => {
  it("lists agent-side capabilities (filtered), describes one, and invokes it traced under its own name", () => {
    const e = openEpisode();
    const list = e.invoke(agent("list_capabilities", { filter: "payment" })).result;
    expect(list).toEqual({
      total: 4,
      offset: 0,
      capabilities: [
        { name: "get_payment", summary: "Look up one payment by reference.", access: "read", needs_approval: false },
        { name: "list_payments", summary: "List the pending payments of a client.", access: "read", needs_approval: false },
        { name: "add_memo", summary: "Write a note on a payment.", access: "write", needs_approval: false },
        { name: "release_payment", summary: "Release a pending payment and debit its account.", access: "write", needs_approval: false },
      ],
    });
    const all = e.invoke(agent("list_capabilities", {})).result as { total: number; capabilities: Array<{ name: string }> };
    expect(all.capabilities.map((c) => c.name)).not.toContain("approve_transfer");
    expect(all.total).toBe(8);
    expect(e.invoke(agent("describe_capability", { name: "execute_transfer" })).result).toMatchObject({
      name: "execute_transfer",
      access: "write",
      requires_approval: { kind: "transfer", terms: ["from_account", "to_account", "amount"] },
      parameters: { type: "object", required: ["from_account", "to_account", "amount"], additionalProperties: false },
    });
    const o = e.invoke(agent("invoke_capability", { name: "get_payment", args: { payment_id: "PAY-00001" } }));
    expect(o.status).toBe("executed");
    expect(e.invoke(agent("invoke_capability", { name: "approve_transfer", args: { proposal_id: "PR-0001" } })).result).toEqual({
      error: { code: "not_found", message: 'no capability named "approve_transfer"', field: "name" },
    });
    expect(e.events.slice(3).map((ev) => [ev.name, ev.args, ev.status])).toEqual([
      ["get_payment", { payment_id: "PAY-00001" }, "executed"],
      ["invoke_capability", { name: "approve_transfer", args: { proposal_id: "PR-0001" } }, "errored"],
    ]);
    e.close();
  });

  it("exports tool specs with JSON Schemas for LLM binding", () => {
    const compiled = compileWorld(fixture().world);
    const direct = agentToolSpecs(compiled, "direct");
    const discovery = agentToolSpecs(compiled, "discovery");
    expect(discovery.map((t) => t.name)).toEqual(["list_reference_documents", "search_documents", "read_document", "query_database", "list_capabilities", "describe_capability", "invoke_capability", "wait"]);
    expect(direct).toHaveLength(discovery.length + 8);
    expect(direct.find((t) => t.name === "query_database")?.description).toContain("- accounts(account_id text, client_id text, currency text, kind text, balance real, reserve_floor real, frozen boolean):");
    expect(discovery.find((t) => t.name === "wait")?.parameters).toEqual({
      type: "object",
      properties: { minutes: { type: "integer", minimum: 0, maximum: 10080, description: "Minutes to wait." } },
      required: ["minutes"],
      additionalProperties: false,
    });
    expect(customerToolSpecs(compiled)).toEqual([
      {
        name: "approve_transfer",
        description: "The client approves one proposed transfer.",
        parameters: { type: "object", properties: { proposal_id: { type: "string", description: "Proposal to approve.", maxLength: 200 } }, required: ["proposal_id"], additionalProperties: false },
      },
    ]);
  });
});
