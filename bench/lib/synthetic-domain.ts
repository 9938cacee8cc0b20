import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RandomStream } from "../../pipeline/core/random.js";

/**
 * A seeded synthetic domain at the size of the largest published benchmarks, for the scale
 * benchmarks. It has `lines` business lines (an equipment-lease desk, a trade-claims desk, …), each
 * with its own request table, a release procedure in two versions (the superseded one with another
 * approval threshold), its rules, an FAQ and six operations (look up, release under officer
 * authority, propose to the client, the client's approval, release once approved, cancel). The rest of the operations are catalog capabilities: read-only
 * reports that no procedure names, documented only in tool-manual pages, so an agent reaches them
 * only through the discovery tools (list / describe / invoke_capability). The rest of the documents
 * are product terms, notices (some for segments the customers are not in), manual pages and FAQs.
 * Same options and seed, same bytes.
 */
export interface SyntheticOptions {
  /** Documents in docs/ (at least 3 per line). */
  documents: number;
  /** Operations in world.yaml (at least 6 per line); those beyond are catalog capabilities. */
  operations: number;
  /** Business lines, each with its own procedure and six operations. */
  lines: number;
  /** Task slots of the domain card. */
  slots: number;
  seed: number;
  /** Domain id (default `synthetic-desk`). */
  id?: string;
}

const AREAS = [
  "lease", "claim", "refund", "grant", "permit", "freight", "warranty", "rebate", "deposit", "tender",
  "licence", "subsidy", "pension", "tariff", "escrow", "royalty", "voucher", "levy", "bond", "credit",
];
const AREA_TITLES: Record<string, string> = {
  lease: "Equipment Lease", claim: "Trade Claim", refund: "Customer Refund", grant: "Research Grant", permit: "Operating Permit",
  freight: "Freight Settlement", warranty: "Warranty Payout", rebate: "Volume Rebate", deposit: "Security Deposit", tender: "Tender Guarantee",
  licence: "Licence Fee", subsidy: "Energy Subsidy", pension: "Pension Transfer", tariff: "Tariff Refund", escrow: "Escrow Release",
  royalty: "Royalty Payment", voucher: "Training Voucher", levy: "Levy Repayment", bond: "Performance Bond", credit: "Trade Credit",
};
const METRICS = ["open", "released", "cancelled", "pending", "total", "largest", "smallest", "average"];
const SEGMENTS = ["corporate", "sme"];
const NAMES = ["Northwind Trading", "Baltic Timber AG", "Corvina Foods", "Helio Mechanics", "Lagune Textiles", "Orinoco Pharma", "Pasteur Labs", "Quarry Stone Ltd", "Rhein Logistik", "Silva Paper"];

interface Line {
  k: number;
  /** Primary key column of the line's table (distinct per line: the task designer finds a subject row by its key's name). */
  key: string;
  area: string;
  title: string;
  code: string;
  table: string;
  threshold: number;
  oldThreshold: number;
}

function lineOf(k: number, r: RandomStream): Line {
  const base = AREAS[k % AREAS.length] as string;
  const round = Math.floor(k / AREAS.length);
  const area = round === 0 ? base : `${base}${round + 1}`;
  const threshold = r.int(10, 40) * 10_000;
  return { k, area, key: `${area}_id`, title: `${AREA_TITLES[base]}${round === 0 ? "" : ` ${round + 1}`}`, code: `${base.slice(0, 3).toUpperCase()}${k + 1}`, table: `${area}_requests`, threshold, oldThreshold: threshold * 2 };
}

const money = (n: number) => `EUR ${n.toLocaleString("en-GB")}.00`;

function lineTable(l: Line, r: RandomStream): string {
  const rows: string[] = [];
  // Fixed rows the task designer can point at: below the threshold, between the two versions' thresholds (a version trap), above both.
  const amounts = [Math.round(l.threshold * 0.4), Math.round(l.threshold * 1.5), Math.round(l.oldThreshold * 1.6)];
  for (let c = 0; c < 2; c++) {
    amounts.forEach((amount, j) => {
      const id = `${l.code}-${String(c * 3 + j + 1).padStart(4, "0")}`;
      rows.push(`      - { ${l.key}: ${id}, client_id: CL-00${c + 1}, amount: ${amount}, reference: REF-${l.code}-${r.int(1000, 9999)}, status: pending }`);
    });
  }
  return `  - name: ${l.table}
    description: ${l.title} requests instructed by clients of the desk.
    primary_key: ${l.key}
    owner_column: client_id
    columns:
      - { name: ${l.key}, type: text, description: Request reference (${l.code}-nnnn). }
      - { name: client_id, type: text, references: clients.client_id, description: Instructing client. }
      - { name: amount, type: real, description: Amount of the request in EUR. }
      - { name: reference, type: text, nullable: true, hidden: true, description: "Contract reference the client quotes for the request (known to the client, stated when asked)." }
      - { name: status, type: text, description: "pending | released | cancelled" }
    rows:
${rows.join("\n")}
    generate:
      count: 12
      fields:
        ${l.key}: { seq: "${l.code}-{n:4}" }
        client_id: { ref: clients.client_id }
        amount: { real: [1000, ${l.oldThreshold * 3}], decimals: 2 }
        reference: { seq: "REF-${l.code}-G{n:4}" }
        status: { choice: [pending, released, cancelled], weights: [3, 2, 1] }
`;
}

function lineOperations(l: Line): string {
  const a = l.area;
  const k = l.key;
  const pending = (what: string) => `      - id: pending
        sql: "SELECT COUNT(*) = 1 FROM ${l.table} WHERE ${k} = :${k} AND status = 'pending'"
        message: Only a pending request can be ${what}.
`;
  return `  - name: get_${a}_request
    description: Look up a ${l.title.toLowerCase()} request by its reference.
    side: agent
    access: read
    params:
      ${k}: { type: string, description: Request reference., pattern: "^${l.code}-\\\\d{4}$" }
    result: { sql: "SELECT ${k}, client_id, amount, status FROM ${l.table} WHERE ${k} = :${k}" }
  - name: release_${a}_request
    description: Release a pending ${l.title.toLowerCase()} request of up to ${money(l.threshold)} under officer authority.
    side: agent
    access: write
    params:
      ${k}: { type: string, description: Request reference., pattern: "^${l.code}-\\\\d{4}$" }
      reference: { type: string, description: Contract reference given by the client., source: customer }
    preconditions:
${pending("released")}      - id: officer_tier
        sql: "SELECT COUNT(*) = 1 FROM ${l.table} WHERE ${k} = :${k} AND amount <= ${l.threshold}"
        message: The amount is above ${money(l.threshold)}; the release needs the client's approval (propose_${a}_release, then release_approved_${a}_request).
        rule: R-${l.code}-APPROVAL
      - id: before_cutoff
        sql: "SELECT :now < 420"
        message: The daily cut-off (16:00) has passed.
        rule: R-${l.code}-CUTOFF
    effects:
      - sql: "UPDATE ${l.table} SET status = 'released', reference = :reference WHERE ${k} = :${k}"
    result: { sql: "SELECT ${k}, status FROM ${l.table} WHERE ${k} = :${k}" }
    rules: [R-${l.code}-APPROVAL, R-${l.code}-CUTOFF]
  - name: propose_${a}_release
    description: Put the release of a ${l.title.toLowerCase()} request above ${money(l.threshold)} to the client for approval (exact terms).
    side: agent
    access: write
    params:
      ${k}: { type: string, description: Request reference., pattern: "^${l.code}-\\\\d{4}$" }
      amount: { type: number, description: Amount to release in EUR (the request's amount). }
    preconditions:
${pending("put to the client")}      - id: client_tier
        sql: "SELECT COUNT(*) = 1 FROM ${l.table} WHERE ${k} = :${k} AND amount > ${l.threshold} AND ABS(amount - :amount) < 0.005"
        message: Only a request above ${money(l.threshold)} is put to the client, for exactly its amount.
        rule: R-${l.code}-APPROVAL
    proposes: { kind: ${a}_release, terms: [${k}, amount] }
    result: { sql: "SELECT ${k}, amount FROM ${l.table} WHERE ${k} = :${k}" }
    rules: [R-${l.code}-APPROVAL]
  - name: approve_${a}_release
    description: The client's authorised approver approves a proposed ${l.title.toLowerCase()} release (exact terms).
    side: customer
    access: write
    params:
      proposal_id: { type: string, description: Proposal to approve. }
    approves: ${a}_release
  - name: release_approved_${a}_request
    description: Release a ${l.title.toLowerCase()} request the client has approved.
    side: agent
    access: write
    params:
      ${k}: { type: string, description: Request reference., pattern: "^${l.code}-\\\\d{4}$" }
      amount: { type: number, description: Approved amount in EUR. }
      reference: { type: string, description: Contract reference given by the client., source: customer }
    preconditions:
${pending("released")}      - id: before_cutoff
        sql: "SELECT :now < 420"
        message: The daily cut-off (16:00) has passed.
        rule: R-${l.code}-CUTOFF
    requires_approval: { kind: ${a}_release, terms: [${k}, amount] }
    effects:
      - sql: "UPDATE ${l.table} SET status = 'released', reference = :reference WHERE ${k} = :${k}"
    result: { sql: "SELECT ${k}, status FROM ${l.table} WHERE ${k} = :${k}" }
    rules: [R-${l.code}-APPROVAL, R-${l.code}-CUTOFF]
  - name: cancel_${a}_request
    description: Cancel a pending ${l.title.toLowerCase()} request.
    side: agent
    access: write
    params:
      ${k}: { type: string, description: Request reference., pattern: "^${l.code}-\\\\d{4}$" }
    preconditions:
${pending("cancelled")}    effects:
      - sql: "UPDATE ${l.table} SET status = 'cancelled' WHERE ${k} = :${k}"
    result: { sql: "SELECT ${k}, status FROM ${l.table} WHERE ${k} = :${k}" }
`;
}

/** Catalog capability `n` (read-only report over one line's table), named by what it reports. */
function catalogOperation(l: Line, n: number): { name: string; yaml: string; line: string } {
  const metric = METRICS[n % METRICS.length] as string;
  const name = `report_${l.area}_${metric}_${n}`;
  const agg: Record<string, string> = { open: "count(*)", released: "count(*)", cancelled: "count(*)", pending: "sum(amount)", total: "sum(amount)", largest: "max(amount)", smallest: "min(amount)", average: "avg(amount)" };
  const where = ["open", "pending"].includes(metric) ? " AND status = 'pending'" : ["released", "cancelled"].includes(metric) ? ` AND status = '${metric}'` : "";
  const what = `${metric} ${l.area} requests, report ${n}`;
  return {
    name,
    line: `| \`${name}\` | ${what[0]?.toUpperCase()}${what.slice(1)}. | read |`,
    // One line each: world.yaml is read under the documents' 256 KiB limit. The parameter is `client`,
    // not `client_id`: a validation probe calls every read operation whose parameters it already
    // knows by name (to learn the customer), and 500 reports taking `client_id` used up its
    // 120-action budget before the procedure began, so the full-size build released no task.
    yaml: `  - { name: ${name}, description: "${what[0]?.toUpperCase()}${what.slice(1)}.", side: agent, access: read, params: { client: { type: string, description: Client number. } }, result: { sql: "SELECT ${agg[metric]} FROM ${l.table} WHERE client_id = :client${where}" } }\n`,
  };
}

function frontMatter(f: { id: string; title: string; kind: string; version: string; from: string; to?: string; segments?: string[]; supersedes?: string }): string {
  return `---
id: ${f.id}
title: ${f.title}
kind: ${f.kind}
version: "${f.version}"
effective_from: ${f.from}
effective_to: ${f.to ?? "null"}
scope:
  segments: [${(f.segments ?? SEGMENTS).join(", ")}]
  note: Applies to clients of the ${f.title.split(" ").slice(0, 2).join(" ")} desk.
${f.supersedes ? `supersedes: [${f.supersedes}]\n` : ""}---
`;
}

function procedureDoc(l: Line, current: boolean): string {
  const a = l.area;
  const id = `${a}-release-procedure`;
  const threshold = current ? l.threshold : l.oldThreshold;
  const head = frontMatter({ id, title: `${l.title} Release Procedure`, kind: "procedure", version: current ? "4.2" : "4.1", from: current ? "2026-01-01" : "2025-01-01", ...(current ? { supersedes: `${id}@4.1` } : { to: "2025-12-31" }) });
  return `${head}# ${l.title} Release Procedure${current ? "" : " (superseded)"}

## 1. Purpose

This procedure describes how the desk releases a ${l.title.toLowerCase()} request once the client has
instructed it, from the first look-up to the release itself.

## 2. Approval

- **${l.code}-2.1** A request of more than ${money(threshold)} must be approved by the client's authorised
  approver before release with \`release_${a}_request\`.
- **${l.code}-2.2** Only after the client has given the contract reference may a request be released.

## 3. Cut-off

- **${l.code}-3.2** Same-day release is possible only before the 16:00 cut-off.

## Procedure: Release a ${l.title.toLowerCase()} request {#${a}-release}

1. Retrieve the request with \`get_${a}_request\` and confirm it belongs to the requesting client.
2. Ask the client for the contract reference of the request (${l.code}-2.2).
3. Check the amount against the approval threshold (${l.code}-2.1).
   - If the amount is above ${money(threshold)}, then propose the release with \`propose_${a}_release\`
     and obtain the client's approval; otherwise continue with step 6.
4. The client approves the proposed release with \`approve_${a}_release\`.
5. Release the approved request with \`release_approved_${a}_request\`; the procedure ends.
6. Release the request under officer authority with \`release_${a}_request\`.

Steps 1 and 2 can be carried out in any order.
`;
}

function faqDoc(l: Line, r: RandomStream): string {
  return `${frontMatter({ id: `${l.area}-faq`, title: `${l.title} Desk FAQ`, kind: "faq", version: "2", from: "2025-09-01" })}# Can a client cancel a ${l.title.toLowerCase()} request?

Yes, as long as it has not been released. The officer cancels it with \`cancel_${l.area}_request\` once the
client confirms in writing. Released requests can only be reversed by the back office, which takes
${r.int(2, 9)} business days.

# How long does a release take?

A request released before the cut-off is settled the same business day.
`;
}

function manualDoc(l: Line, part: number, entries: string[]): string {
  return `${frontMatter({ id: `${l.area}-reports-manual-${part}`, title: `${l.title} Reports Manual, Part ${part}`, kind: "tool_manual", version: "1", from: "2025-06-01" })}# ${l.title} reports, part ${part}

The reporting capabilities below are read-only. They are not part of any procedure: use them to
answer a client's question about their requests.

| Capability | What it reports | Access |
|---|---|---|
${entries.join("\n")}
`;
}

function fillerDoc(l: Line, n: number, r: RandomStream): string {
  const kind = r.pick(["product_terms", "policy", "faq"] as const);
  const outOfScope = n % 7 === 3;
  const head = frontMatter({ id: `${l.area}-notice-${n}`, title: `${l.title} Notice ${n}`, kind, version: `${r.int(1, 5)}.${r.int(0, 9)}`, from: `2025-${String(r.int(1, 12)).padStart(2, "0")}-01`, segments: outOfScope ? ["retail"] : SEGMENTS });
  const days = r.int(2, 30);
  const fee = r.int(1, 90) * 10;
  return `${head}# ${l.title} notice ${n}

## Terms

- **${l.code}N${n}-1** A client who asks for a written confirmation of a ${l.title.toLowerCase()} request
  receives it within ${days} business days.
- **${l.code}N${n}-2** The desk charges a handling fee of ${money(fee)} for a paper copy of a statement.

## Background

The ${l.title.toLowerCase()} desk serves ${outOfScope ? "retail clients of the partner network only" : "corporate and SME clients"}.
Requests arrive through the client portal or by secure message and are processed in the order
received. This notice was issued on ${r.int(1, 28)} ${r.pick(["January", "March", "May", "July", "September", "November"])} to explain the terms above.
`;
}

/** Write the synthetic domain into `root/<id>/` (domain.yaml, world.yaml, docs/); returns the domain folder. */
export function writeSyntheticDomain(root: string, opts: SyntheticOptions): string {
  const id = opts.id ?? "synthetic-desk";
  if (opts.documents < opts.lines * 3) throw new Error(`documents must be at least 3 per line (${opts.lines * 3}), got ${opts.documents}`);
  if (opts.operations < opts.lines * 6) throw new Error(`operations must be at least 6 per line (${opts.lines * 6}), got ${opts.operations}`);
  const dir = join(root, id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "docs"), { recursive: true });
  const rng = new RandomStream(opts.seed);
  const lines = Array.from({ length: opts.lines }, (_, k) => lineOf(k, rng.fork(`line/${k}`)));

  // Catalog capabilities, spread over the lines; documented in manual pages of ten.
  const catalogCount = opts.operations - opts.lines * 6;
  const catalog = Array.from({ length: catalogCount }, (_, n) => ({ line: lines[n % lines.length] as Line, op: catalogOperation(lines[n % lines.length] as Line, n) }));

  const clients = NAMES.map((name, i) => `      - { client_id: CL-00${i + 1}, name: ${name}, segment: ${i % 3 === 2 ? "sme" : "corporate"} }`);
  const world = `# Synthetic world of a multi-line operations desk (bench/lib/synthetic-domain.ts, seed ${opts.seed}).
domain: ${id}
customer_table: clients
tables:
  - name: clients
    description: Clients of the desk.
    primary_key: client_id
    owner_column: client_id
    columns:
      - { name: client_id, type: text, description: Client number (CL-nnn). }
      - { name: name, type: text, description: Registered name. }
      - { name: segment, type: text, description: "corporate | sme" }
    rows:
${clients.join("\n")}
    generate:
      count: 40
      fields:
        client_id: { seq: "CL-{n:3}" }
        name: { faker: company.name }
        segment: { choice: [corporate, sme] }
${lines.map((l) => lineTable(l, rng.fork(`rows/${l.k}`))).join("")}operations:
${lines.map(lineOperations).join("")}${catalog.map((c) => c.op.yaml).join("")}rules:
${lines
  .map(
    (l) => `  - id: R-${l.code}-APPROVAL
    clause: { document: ${l.area}-release-procedure, clause: ${l.code}-2.1 }
    kind: approval
    description: ${l.title} requests above ${money(l.threshold)} need the client's approval.
  - id: R-${l.code}-CUTOFF
    clause: { document: ${l.area}-release-procedure, clause: ${l.code}-3.2 }
    kind: deadline
    description: Same-day release only before the 16:00 cut-off.
`,
  )
  .join("")}`;
  writeFileSync(join(dir, "world.yaml"), world);

  writeFileSync(
    join(dir, "domain.yaml"),
    `id: ${id}
title: Synthetic Multi-Line Operations Desk
industry: Business & Enterprise
role: operations officer of a multi-line service desk
summary: >-
  A generated desk with ${opts.lines} business lines, each releasing client requests by an approval
  threshold before a daily cut-off, and ${catalogCount} read-only reporting capabilities documented in
  manual pages. Built by the scale benchmarks (bench/lib/synthetic-domain.ts).
customer: a finance manager of a corporate or SME client
as_of: 2026-03-02
generation:
  seed: ${opts.seed}
  task_count: ${opts.slots}
  max_workflows_per_task: 2
`,
  );

  // Documents: per line the two procedure versions and the FAQ, then the manual pages of the
  // catalog, then notices up to the requested count.
  const docs: Array<[string, string]> = [];
  for (const l of lines) {
    docs.push([`${l.area}-release-procedure-v4-2.md`, procedureDoc(l, true)]);
    docs.push([`${l.area}-release-procedure-v4-1.md`, procedureDoc(l, false)]);
    docs.push([`${l.area}-faq.md`, faqDoc(l, rng.fork(`faq/${l.k}`))]);
  }
  for (const l of lines) {
    const own = catalog.filter((c) => c.line === l).map((c) => c.op.line);
    for (let p = 0; p * 10 < own.length && docs.length < opts.documents; p++) docs.push([`${l.area}-reports-manual-${p + 1}.md`, manualDoc(l, p + 1, own.slice(p * 10, p * 10 + 10))]);
  }
  for (let n = 0; docs.length < opts.documents; n++) {
    const l = lines[n % lines.length] as Line;
    docs.push([`${l.area}-notice-${n}.md`, fillerDoc(l, n, rng.fork(`notice/${n}`))]);
  }
  for (const [file, text] of docs) writeFileSync(join(dir, "docs", file), text);
  return dir;
}
