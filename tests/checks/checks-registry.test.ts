import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CHECK_KINDS, CHECK_KIND_NAMES, getCheckKind } from "../../validation/checks/index.js";
import { renderChecksReadme } from "../../validation/checks/readme.js";

const kindsDir = new URL("../../validation/checks/kinds/", import.meta.url);
const readmeFile = new URL("../../validation/checks/README.md", import.meta.url);

describe("check registry", () => {
  it("registers every kind file exactly once, under a unique snake_case name", () => {
    const files = readdirSync(kindsDir).filter((f) => f.endsWith(".ts"));
    expect(CHECK_KINDS.length).toBe(files.length);
    expect(new Set(CHECK_KIND_NAMES).size).toBe(CHECK_KINDS.length);
    // kind `final_row_state` lives in kinds/final-row-state.ts
    expect(CHECK_KINDS.map((k) => `${k.kind.replace(/_/g, "-")}.ts`).sort()).toEqual(files.sort());
    for (const k of CHECK_KINDS) expect(k.kind).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it("every kind has a group, a description, what it catches, and a params schema", () => {
    for (const k of CHECK_KINDS) {
      expect(["goal", "process", "protection"]).toContain(k.group);
      expect(k.description.length).toBeGreaterThan(20);
      expect(k.catches.length).toBeGreaterThan(20);
      expect(k.params).toBeInstanceOf(z.ZodType);
      expect(getCheckKind(k.kind)).toBe(k);
    }
  });

  it("covers the three groups with the kinds the task designer relies on", () => {
    expect(CHECK_KIND_NAMES).toEqual([
      "action_executed",
      "approval_before_execution",
      "branch_followed",
      "deadline_met",
      "executed_in_order",
      "execution_count",
      "fact_elicited_before_use",
      "final_row_state",
      "invariant_holds",
      "other_customers_untouched",
      "prohibited_operations_absent",
      "protected_rows_unchanged",
      "rule_version_followed",
      "terminal_value_in",
      "waits_for_event",
    ]);
  });
});

describe("validation/checks/README.md", () => {
  // UPDATE_CHECKS_README=1 npx vitest run tests/checks rewrites it from the registry.
  if (process.env.UPDATE_CHECKS_README === "1") writeFileSync(readmeFile, renderChecksReadme());
  const readme = readFileSync(readmeFile, "utf8");

  it("lists exactly the registered kinds", () => {
    const listed = [...readme.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...CHECK_KIND_NAMES]);
  });

  it("is the generated text (regenerate it after changing a kind)", () => {
    expect(readme).toBe(renderChecksReadme());
  });
});
