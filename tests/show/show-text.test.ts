import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";
import { SAMPLE, SAMPLE_DIR } from "./show-fixture.js";

/** Lines of a document file of the release, 1-based, as a reviewer would open it. */
function docLine(domain: string, file: string, n: number): string {
  return readFileSync(join(SAMPLE_DIR, "domains", domain, "docs", file), "utf8").split("\n")[n - 1] as string;
}

function show(task: string): string[] {
  const r = runCli(["show", SAMPLE, task]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  return r.stdout.split("\n");
}

/** The lines right after `first` (first included), so an assertion pins their order too. */
function block(lines: string[], first: string, n: number): string[] {
  const i = lines.indexOf(first);
  expect(i, `line not found: ${first}`).toBeGreaterThanOrEqual(0);
  return lines.slice(i, i + n);
}

describe("synth show RELEASE TASK as text, one task per sample domain", () => {
  it("customs-clearance-001: first golden events, the clause quoted with its line numbers, a check with its deciding event", () => {
    const lines = show("customs-clearance-001");
    expect(lines).toContain("  commercial_invoice_number = \"INV-BW-88530\" [hidden from agent] \"The commercial invoice number is INV-BW-88530.\" (asked about: commercial invoice number, invoice number)");
    expect(lines).toContain("  distractor temporary-storage-procedure@4.3 \"Temporary Storage Time Limits and Lodging a Declaration\" (2024-03-01 to 2026-01-14) scope: Goods presented at the Port of Halvik and held in a temporary storage facility pending a standard import declaration.");
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[2] t=0 agent tool_call list_storage_items {"importer_id":"IMP-101"} → executed', 6).slice(2)).toEqual([
      "    plan step 1 (lodge-from-storage/s1): Retrieve the importer's storage items with `list_storage_items` and identify the item the declarant names.",
      "    clause temporary-storage-procedure@5.0 lines 91-92:",
      `        91 | ${docLine("customs-clearance", "temporary-storage-procedure-v5.md", 91)}`,
      `        92 | ${docLine("customs-clearance", "temporary-storage-procedure-v5.md", 92)}`,
    ]);
    expect(docLine("customs-clearance", "temporary-storage-procedure-v5.md", 91)).toBe("1. Retrieve the importer's storage items with `list_storage_items` and identify the item the");
    expect(block(lines, "  process-lodge_declaration-TS-26-0413-count [execution_count] passed: lodge_declaration runs exactly 1 time(s) for TS-26-0413.", 7)).toEqual([
      "  process-lodge_declaration-TS-26-0413-count [execution_count] passed: lodge_declaration runs exactly 1 time(s) for TS-26-0413.",
      "      rule lodge-from-storage/s6, clause temporary-storage-procedure@5.0 lines 103-105:",
      "         103 | 6. Lodge the declaration with `lodge_declaration`.",
      "         104 |    - If the lodgement is refused because the time limit has ended in the meantime, then proceed as",
      "         105 |      in TS-3.4 and stop.",
      '      decided at event 12: lodge_declaration with storage_id = "TS-26-0413" executed 1 time (event 12), expected exactly 1',
      "      no violation trace targets this check",
    ]);
  });

  it("ed-triage-002: the rows an event inserted, and a check with the violation trace it kills", () => {
    const lines = show("ed-triage-002");
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[2] t=0 agent tool_call get_attendance {"attendance_id":"ATT-5108"} → executed', 5).slice(3)).toEqual([
      "    clause discharge-redirection-procedure@1.3 lines 43-45 (DIS-2.1):",
      `        43 | ${docLine("ed-triage", "discharge-redirection-procedure.md", 43)}`,
    ]);
    expect(block(lines, '[5] t=0 agent tool_call record_observations {"attendance_id":"ATT-5108","pain_score":3} → executed', 4).slice(2)).toEqual(["    insert observations[OBS-20005]", '      attendance_id = "ATT-5108"']);
    expect(block(lines, "  process-record_observations-ATT-5108-count [execution_count] passed: record_observations runs exactly 1 time(s) for ATT-5108.", 5)).toEqual([
      "  process-record_observations-ATT-5108-count [execution_count] passed: record_observations runs exactly 1 time(s) for ATT-5108.",
      "      rule DIS-2.2, clause discharge-redirection-procedure@1.3 lines 46-46 (DIS-2.2):",
      "          46 | 2. Ask the patient for their pain score and record a new set with `record_observations` (DIS-2.2).",
      '      decided at event 5: record_observations with attendance_id = "ATT-5108" executed 1 time (event 5), expected exactly 1',
      '      violation domains/ed-triage/violations/ed-triage-002/execute_twice.json (execute_twice): failed: record_observations with attendance_id = "ATT-5108" executed 2 times (events 5, 6), expected exactly 1',
    ]);
  });

  it("fx-treasury-001: first agent event with its clause, and the deciding event of a process check", () => {
    const lines = show("fx-treasury-001");
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[2] t=0 agent tool_call get_payment {"payment_id":"PAY-10001"} → executed', 5).slice(2)).toEqual([
      "    plan step 1 (next-day-scheduling/s1): Retrieve the payment with `get_payment` and confirm that it is unreleased, due today and not held by sanctions screening (PSP-2.1).",
      "    clause payment-release-procedure@5.1 lines 128-128 (PSP-2.1):",
      "       128 | 1. Retrieve the payment with `get_payment` and confirm that it is unreleased, due today and not held by sanctions screening (PSP-2.1).",
    ]);
    expect(lines).toContain('      decided at event 3: defer_payment with payment_id = "PAY-10001" executed 1 time (event 3), expected exactly 1');
    expect(lines).toContain("    decides process check process-defer_payment-PAY-10001-count: passed");
  });
});
