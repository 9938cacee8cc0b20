import { describe, expect, it } from "vitest";
import type { SopDocument, SopRule } from "../../pipeline/schemas/sop.js";
import { compareVersions, judgeDocumentVersions, selectRules } from "../../pipeline/sop/select-rules.js";

function version(id: string, v: string, from: string, to: string | null, scope: Partial<SopDocument["scope"]> = {}, supersedes: string[] = []): SopDocument {
  return {
    id,
    version: v,
    title: id,
    kind: "policy",
    file: `docs/${id}-${v}.md`,
    effective_from: from,
    effective_to: to,
    scope: { segments: [], regions: [], products: [], ...scope },
    supersedes,
    status: "current",
    status_reason: "",
  };
}

function rule(clause: string, d: SopDocument): SopRule {
  return {
    id: clause,
    statement: `${clause} of ${d.version}`,
    document: d.id,
    version: d.version,
    effective_from: d.effective_from,
    effective_to: d.effective_to,
    scope: d.scope,
    affected_objects: [],
    prerequisites: [],
    action: `${clause} of ${d.version}`,
    exceptions: [],
    formal_rule: null,
    status: "current",
    provenance: { document: d.id, version: d.version, line_start: 1, line_end: 1, clause },
  };
}

// Payment limits: 3.0 expired at the end of 2025; 4.0 in force for everyone from 2026; 4.1 (corporate
// only, EU only) from March 2026 and overlapping 4.0; 5.0 announced for July. A separate retail
// policy supersedes the limits policy for retail clients.
const v30 = version("limits", "3.0", "2025-01-01", "2025-12-31");
const v40 = version("limits", "4.0", "2026-01-01", null, {}, ["limits@3.0"]);
const v41 = version("limits", "4.1", "2026-03-01", null, { segments: ["corporate"], regions: ["EU"] });
const v50 = version("limits", "5.0", "2026-07-01", null);
const retail = version("retail-limits", "1", "2026-02-01", null, { segments: ["Retail"] }, ["limits"]);
const documents = [v30, v40, v41, v50, retail];
const rules = [rule("LIM-1", v30), rule("LIM-1", v40), rule("LIM-2", v40), rule("LIM-1", v41), rule("LIM-1", v50), rule("RTL-1", retail)];
const sop = { documents, rules };

const chosen = (date: string, customer: { segment?: string; region?: string; product?: string }) => {
  const s = selectRules(sop, { date, customer });
  return {
    applicable: s.applicable.map((r) => `${r.id}@${r.version}`),
    distractors: s.distractors.map((d) => `${d.rule.id}@${d.rule.version}: ${d.status}`),
  };
};

describe("rule selection by date and customer", () => {
  it("a corporate EU client in March: the newer overlapping version wins; the others are distractors with reasons", () => {
    const s = selectRules(sop, { date: "2026-03-15", customer: { segment: "corporate", region: "EU" } });
    expect(s.applicable.map((r) => `${r.id}@${r.version}`)).toEqual(["LIM-1@4.1"]);
    expect(s.distractors.map((d) => [`${d.rule.id}@${d.rule.version}`, d.status, d.reason])).toEqual([
      ["LIM-1@3.0", "superseded", "ceased to apply after 2025-12-31, before 2026-03-15"],
      ["LIM-1@4.0", "superseded", "limits@4.1 is the newer version in force"],
      ["LIM-2@4.0", "superseded", "limits@4.1 is the newer version in force"],
      ["LIM-1@5.0", "not_yet_effective", "takes effect on 2026-07-01, after 2026-03-15"],
      ["RTL-1@1", "out_of_scope", "its scope segments [Retail] does not cover segment 'corporate'"],
    ]);
  });

  it("an SME client in March: 4.1 is out of scope, so 4.0 applies (a clause absent from 4.1 too)", () => {
    expect(chosen("2026-03-15", { segment: "sme", region: "EU" })).toEqual({
      applicable: ["LIM-1@4.0", "LIM-2@4.0"],
      distractors: ["LIM-1@3.0: superseded", "LIM-1@4.1: out_of_scope", "LIM-1@5.0: not_yet_effective", "RTL-1@1: out_of_scope"],
    });
  });

  it("a corporate client outside the EU: region decides", () => {
    expect(chosen("2026-03-15", { segment: "corporate", region: "UK" }).applicable).toEqual(["LIM-1@4.0", "LIM-2@4.0"]);
  });

  it("a retail client: the retail policy supersedes every limits version (case-insensitive scope)", () => {
    expect(chosen("2026-03-15", { segment: "retail" })).toEqual({
      applicable: ["RTL-1@1"],
      distractors: ["LIM-1@3.0: superseded", "LIM-1@4.0: superseded", "LIM-2@4.0: superseded", "LIM-1@4.1: out_of_scope", "LIM-1@5.0: not_yet_effective"],
    });
  });

  it("dates at the edges: effective_to is the last day in force, effective_from the first", () => {
    expect(chosen("2025-12-31", { segment: "corporate", region: "EU" }).applicable).toEqual(["LIM-1@3.0"]);
    expect(chosen("2026-01-01", { segment: "corporate", region: "EU" }).applicable).toEqual(["LIM-1@4.0", "LIM-2@4.0"]);
    expect(chosen("2026-07-01", { segment: "corporate", region: "EU" }).applicable).toEqual(["LIM-1@5.0"]);
  });

  it("an unknown customer attribute restricts nothing (so even the retail policy's supersession applies)", () => {
    expect(chosen("2026-03-15", {}).applicable).toEqual(["RTL-1@1"]);
    expect(chosen("2026-03-15", { region: "EU" }).applicable).toEqual(["RTL-1@1"]);
    expect(chosen("2026-02-15", { segment: "corporate" }).applicable).toEqual(["LIM-1@4.0", "LIM-2@4.0"]);
  });

  it("is deterministic whatever the input order", () => {
    const reversed = selectRules({ documents: [...documents].reverse(), rules: [...rules].reverse() }, { date: "2026-03-15", customer: { segment: "sme" } });
    expect(reversed.applicable.map((r) => `${r.id}@${r.version}`)).toEqual(["LIM-2@4.0", "LIM-1@4.0"]);
  });

  it("works from rules alone when the SOP has no document list (no supersedes known)", () => {
    const s = selectRules({ documents: [], rules }, { date: "2026-03-15", customer: { segment: "retail" } });
    expect(s.applicable.map((r) => `${r.id}@${r.version}`)).toEqual(["LIM-1@4.0", "LIM-2@4.0", "RTL-1@1"]);
  });
});

describe("document version judgement", () => {
  it("a profile with several values covers a scope when any value matches", () => {
    const verdicts = judgeDocumentVersions(documents, { date: "2026-03-15", customer: { segments: ["corporate", "sme"], regions: ["UK"] } });
    expect(verdicts.map((v) => `${v.document}@${v.version}: ${v.status}`)).toEqual([
      "limits@3.0: superseded",
      "limits@4.0: current",
      "limits@4.1: out_of_scope",
      "limits@5.0: not_yet_effective",
      "retail-limits@1: out_of_scope",
    ]);
  });

  it("versions compare numerically", () => {
    expect(["4.10", "4.2", "4", "10.0"].sort(compareVersions)).toEqual(["4", "4.2", "4.10", "10.0"]);
  });
});
