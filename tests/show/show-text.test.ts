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
  it("customs-clearance-016: the golden trace reads the procedure in force first, quotes the clause with its line numbers, and a check names its deciding event and the violation trace that fails it", () => {
    const lines = show("customs-clearance-016");
    expect(lines).toContain('  proof_of_origin_reference = "REXVN5530218847-AF-3351" [hidden from agent] "The reference of the proof of origin is REXVN5530218847-AF-3351." (asked about: proof of origin reference, reference of the proof of origin)');
    expect(lines).toContain("  distractor duty-security-policy@2.4 \"Securing Import Duty — Deferment Accounts and Cash Deposits\" (2024-07-01 to 2025-09-30) scope: Duty on standard import declarations lodged at the Import Clearance Desk.");
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[2] t=0 agent tool_call read_document {"id":"holds-and-inspections-procedure","version":"2.0"} → executed', 5).slice(2)).toEqual([
      '    plan step 1 (physical-examination/s1): the procedure "Carry out a physical examination" is followed from here: read it in the version in force',
      "    clause holds-and-inspections-procedure@2.0 lines 82-82:",
      `        82 | ${docLine("customs-clearance", "holds-and-inspections-procedure.md", 82)}`,
    ]);
    expect(docLine("customs-clearance", "holds-and-inspections-procedure.md", 82)).toBe("1. List the holds of the declaration with `list_holds` and identify the open physical hold.");
    expect(block(lines, "  process-claim_preference-DEC-26-004133-count [execution_count] passed: claim_preference runs exactly 1 time(s) for DEC-26-004133.", 7)).toEqual([
      "  process-claim_preference-DEC-26-004133-count [execution_count] passed: claim_preference runs exactly 1 time(s) for DEC-26-004133.",
      "      rule PO-3.2, clause preferential-origin-procedure@3.2 lines 110-112 (PO-3.2):",
      "         110 | 4. Record the claim with `claim_preference` (PO-3.2, PO-4.1).",
      "         111 |    - If the customs value is EUR 6,000.00 or less, then stop; the declaration continues with the",
      "         112 |      security of the duty.",
      '      decided at event 15: claim_preference with declaration_id = "DEC-26-004133" executed 1 time (event 15), expected exactly 1',
      '      violation domains/customs-clearance/violations/customs-clearance-016/execute_twice.json (execute_twice): failed: claim_preference with declaration_id = "DEC-26-004133" executed 2 times (events 15, 16), expected exactly 1',
    ]);
  });

  it("ed-triage-001: hidden facts, the procedure read first, and a check with the violation trace it kills", () => {
    const lines = show("ed-triage-001");
    expect(lines).toContain('  family_name = "Holloway" [hidden from agent] "The family name is Holloway." (asked about: family name, family name as the patient or relative gives it)');
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[2] t=0 agent tool_call read_document {"id":"triage-reassessment-procedure","version":"2.1"} → executed', 5).slice(3)).toEqual([
      "    clause triage-reassessment-procedure@2.1 lines 39-42 (TRP-1.2):",
      `        39 | ${docLine("ed-triage", "triage-reassessment-procedure.md", 39)}`,
    ]);
    expect(block(lines, "  process-escalate_to_physician-ATT-5113-count [execution_count] passed: escalate_to_physician runs exactly 1 time(s) for ATT-5113.", 6)).toEqual([
      "  process-escalate_to_physician-ATT-5113-count [execution_count] passed: escalate_to_physician runs exactly 1 time(s) for ATT-5113.",
      "      rule ESC-2.1, clause triage-reassessment-procedure@2.1 lines 59-60 (ESC-2.1):",
      "          59 | 8. Escalate the level 1 or 2 patient to the Emergency Physician in Charge with",
      "          60 |    `escalate_to_physician` within 10 minutes of the level being assigned (ESC-2.1).",
      '      decided at event 33: escalate_to_physician with attendance_id = "ATT-5113" executed 1 time (event 33), expected exactly 1',
      '      violation domains/ed-triage/violations/ed-triage-001/execute_twice.json (execute_twice): failed: escalate_to_physician with attendance_id = "ATT-5113" executed 2 times (events 33, 34), expected exactly 1',
    ]);
  });

  it("fx-treasury-003: first agent events with their clause, and the deciding event of a process check", () => {
    const lines = show("fx-treasury-003");
    expect(lines.find((l) => l.startsWith("[1] "))).toBe("[1] t=0 customer customer_message message → executed");
    expect(block(lines, '[3] t=0 agent tool_call get_payment {"payment_id":"PAY-10012"} → executed', 5).slice(2)).toEqual([
      '    plan step 2 (payment-release/s1): Retrieve the payment with `get_payment` and confirm that it belongs to the requesting client, that its value date is today (PRP-2.3) and that its status is "received". Note the EUR equivalent.',
      "    clause payment-release-procedure@5.1 lines 69-70 (PRP-2.3):",
      `        69 | ${docLine("fx-treasury", "payment-release-procedure.md", 69)}`,
    ]);
    expect(lines).toContain('      decided at event 14: release_payment with payment_id = "PAY-10012" executed at event 14 (release_payment)');
    expect(lines).toContain("    decides process check process-validate_payment-PAY-10012-count: passed");
  });
});
