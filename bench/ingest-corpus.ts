import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RandomStream } from "../pipeline/core/random.js";

const AREAS = ["Payment", "Refund", "Transfer", "Claim", "Shipment", "Admission", "Declaration", "Account", "Loan", "Return"];
const VERBS = ["Retrieve", "Check", "Confirm", "Record", "Validate", "Review", "Update", "Compare", "Verify", "Register"];
const OBJECTS = ["the request", "the amount", "the client's mandate", "the supporting documents", "the status", "the limit", "the reference", "the deadline"];
const OPS = ["get_record", "list_items", "validate_request", "propose_change", "approve_change", "apply_change", "record_note", "close_case"];
const SEGMENTS = ["corporate", "sme", "retail", "public-sector"];

/** One procedure document of about 2 KB: front matter, numbered clauses, a procedure with a nested decision and a decision table. */
export function procedureDocument(r: RandomStream, i: number): string {
  const area = r.pick(AREAS);
  const prefix = `${area.slice(0, 3).toUpperCase()}${i % 97}`;
  const id = `${area.toLowerCase()}-procedure-${i}`;
  const threshold = r.int(5, 900) * 1000;
  const clauses = Array.from({ length: 3 }, (_, k) => {
    const op = r.pick(OPS);
    return `- **${prefix}-${k + 1}.${r.int(1, 9)}** ${r.pick(VERBS)} ${r.pick(OBJECTS)} with \`${op}\` before any change is applied; a ${area.toLowerCase()} above EUR ${threshold.toLocaleString("en-GB")}.00 needs the approval of the client's authorised signatory. Exception: requests between two accounts of the same client.`;
  });
  const steps = Array.from({ length: 6 }, (_, k) => `${k + 1}. ${r.pick(VERBS)} ${r.pick(OBJECTS)} with \`${r.pick(OPS)}\` and note the outcome in the case file (${prefix}-${r.int(1, 3)}.${r.int(1, 9)}).`);
  steps.splice(3, 0, `   - If the amount is above EUR ${threshold.toLocaleString("en-GB")}.00, then propose the change with \`propose_change\`; otherwise continue with step 5.`);
  const rows = Array.from({ length: 4 }, (_, k) => `| ${r.pick(["below", "above", "equal to"])} EUR ${r.int(1, 99) * 1000} | ${r.pick(["yes", "no"])} | ${k % 2 === 0 ? `go to step ${r.int(2, 6)}` : "stop"} |`);
  return `---
id: ${id}
title: ${area} Handling Procedure ${i}
kind: procedure
version: "${r.int(1, 9)}.${r.int(0, 9)}"
effective_from: 2026-0${r.int(1, 9)}-1${r.int(0, 9)}
effective_to: null
scope:
  segments: [${r.pick(SEGMENTS)}]
  note: Applies to the ${area.toLowerCase()} desk.
---
# ${area} Handling Procedure

## 1. Purpose

This procedure describes how the ${area.toLowerCase()} desk handles a request from the moment it arrives until it is closed. It applies to every request received through the client portal or by secure message.

## 2. Rules

${clauses.join("\n")}

## Procedure: Handle a ${area.toLowerCase()} request {#${area.toLowerCase()}-request-${i}}

${steps.join("\n")}

| Amount | Signatory present | Outcome |
|---|---|---|
${rows.join("\n")}

Steps 1 and 2 can be carried out in any order.
`;
}

/** Write `count` documents into `dir/docs/`; returns their paths and texts. */
export function writeCorpus(dir: string, count: number, seed = 20260302): Array<{ file: string; text: string }> {
  const r = new RandomStream(seed);
  mkdirSync(join(dir, "docs"), { recursive: true });
  return Array.from({ length: count }, (_, i) => {
    const file = join(dir, "docs", `doc-${String(i).padStart(4, "0")}.md`);
    const text = procedureDocument(r.fork(`doc/${i}`), i);
    writeFileSync(file, text);
    return { file, text };
  });
}
