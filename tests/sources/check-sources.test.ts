import { symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../pipeline/cli/main.js";
import { checkDomain } from "../../pipeline/sources/check-sources.js";
import { MAX_DOCUMENT_BYTES } from "../../pipeline/sources/read-domain-files.js";
import { readFileSync } from "node:fs";
import { BASE_DOMAIN, cleanDomains, doc, makeDomain } from "../sop/domain-helper.js";

const BASE_WORLD = readFileSync(join(BASE_DOMAIN, "world.yaml"), "utf8");

afterAll(cleanDomains);
afterEach(() => {
  process.exitCode = 0;
  vi.restoreAllMocks();
});

const PROC = (steps: string) => doc({ id: "extra-procedure", title: "Extra procedure" }, `# Extra\n\n## Procedure: Extra work {#extra-work}\n\n${steps}`);

interface Case {
  name: string;
  files: Record<string, string | Buffer | null>;
  /** [code, file relative to the domain folder, line] of every issue, in report order. */
  issues: Array<[string, string, number | undefined]>;
  /** Documents that still loaded. */
  documents: number;
  setup?: (dir: string) => void;
}

const CASES: Case[] = [
  {
    name: "malformed front matter",
    files: { "docs/zz-bad.md": "---\nid: zz-bad\ntitle: Bad: yes: no\nkind: faq\n---\nBody.\n" },
    issues: [["DOC_FRONT_MATTER_SYNTAX", "docs/zz-bad.md", 3]],
    documents: 4,
  },
  {
    name: "missing required key",
    files: { "docs/zz-no-title.md": "---\nid: zz-no-title\nkind: faq\nversion: \"1\"\neffective_from: 2026-01-01\n---\nBody.\n" },
    issues: [["DOC_MISSING_KEY", "docs/zz-no-title.md", 2]],
    documents: 4,
  },
  {
    name: "duplicate document id",
    files: { "docs/zz-faq.md": doc({ id: "cancellation-faq", title: "Another FAQ", kind: "faq", version: '"3"' }, "Text.\n") },
    issues: [
      ["DOC_DUPLICATE_ID", "docs/cancellation-faq.md", 2],
      ["DOC_DUPLICATE_ID", "docs/zz-faq.md", 2],
    ],
    documents: 5,
  },
  {
    name: "two documents claiming the same id and version",
    files: { "docs/zz-faq.md": doc({ id: "cancellation-faq", title: "Another FAQ", kind: "faq", version: '"2"' }, "Text.\n") },
    issues: [["DOC_DUPLICATE_VERSION", "docs/zz-faq.md", 5]],
    documents: 5,
  },
  {
    name: "effective_to before effective_from",
    files: { "docs/zz-range.md": doc({ id: "zz-range", title: "Range", effective_to: "2025-12-31" }, "Text.\n") },
    issues: [["DOC_EFFECTIVE_RANGE", "docs/zz-range.md", 7]],
    documents: 4,
  },
  {
    name: "supersedes naming an unknown document",
    files: { "docs/zz-sup.md": doc({ id: "zz-sup", title: "Sup", supersedes: "[nowhere-policy@1]" }, "Text.\n") },
    issues: [["DOC_SUPERSEDES_UNKNOWN", "docs/zz-sup.md", 7]],
    documents: 5,
  },
  {
    name: "a step naming an unknown operation",
    files: { "docs/zz-proc.md": PROC("1. Look up the payment with `get_payment`.\n2. Release it with `release_paymnt`.\n") },
    issues: [["SOP_UNKNOWN_OPERATION", "docs/zz-proc.md", 13]],
    documents: 5,
  },
  {
    name: "a rule anchor defined twice",
    files: { "docs/zz-dup.md": doc({ id: "zz-dup", title: "Dup", kind: "policy" }, "# Rules\n\n- **DUP-1** First text.\n- **DUP-2** Second.\n- **DUP-1** Again.\n") },
    issues: [["SOP_DUPLICATE_ANCHOR", "docs/zz-dup.md", 12]],
    documents: 5,
  },
  {
    name: "an empty document",
    files: { "docs/zz-empty.md": doc({ id: "zz-empty", title: "Empty" }, "\n   \n") },
    issues: [["DOC_EMPTY", "docs/zz-empty.md", 8]],
    documents: 4,
  },
  {
    name: "a binary file",
    files: { "docs/zz-binary.md": Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x69, 0x64, 0x0a, 0x00, 0x01, 0x02]) },
    issues: [["DOC_BINARY", "docs/zz-binary.md", 3]],
    documents: 4,
  },
  {
    name: "a non-UTF-8 file",
    files: { "docs/zz-latin1.md": Buffer.concat([Buffer.from("---\nid: zz-latin1\ntitle: Caf"), Buffer.from([0xe9]), Buffer.from("\n---\nText.\n")]) },
    issues: [["DOC_NOT_UTF8", "docs/zz-latin1.md", 3]],
    documents: 4,
  },
  {
    name: "a file over the size limit",
    files: { "docs/zz-huge.md": doc({ id: "zz-huge", title: "Huge" }, `${"x".repeat(MAX_DOCUMENT_BYTES)}\n`) },
    issues: [["DOC_TOO_LARGE", "docs/zz-huge.md", undefined]],
    documents: 4,
  },
  {
    name: "a symbolic link leading outside the domain folder",
    files: {},
    setup: (dir) => {
      const outside = join(dir, "..", "outside.md");
      writeFileSync(outside, doc({ id: "outside", title: "Outside" }, "Text.\n"));
      symlinkSync(relative(join(dir, "docs"), outside), join(dir, "docs", "zz-link.md"));
    },
    issues: [["DOC_SYMLINK_OUTSIDE", "docs/zz-link.md", undefined]],
    documents: 4,
  },
  {
    name: "a procedure without an id",
    files: { "docs/zz-proc.md": doc({ id: "zz-proc", title: "Proc" }, "# P\n\n## Procedure: Do something\n\n1. Step.\n") },
    issues: [["SOP_PROCEDURE_NO_ID", "docs/zz-proc.md", 10]],
    documents: 5,
  },
  {
    name: "a procedure without steps",
    files: { "docs/zz-proc.md": doc({ id: "zz-proc", title: "Proc" }, "# P\n\n## Procedure: Do something {#do-something}\n\n- not numbered\n") },
    issues: [["SOP_PROCEDURE_NO_STEPS", "docs/zz-proc.md", 10]],
    documents: 5,
  },
  {
    name: "an If item without then",
    files: { "docs/zz-proc.md": PROC("1. Look up the payment with `get_payment`.\n   - If it is pending, release it.\n") },
    issues: [["SOP_IF_WITHOUT_THEN", "docs/zz-proc.md", 13]],
    documents: 5,
  },
  {
    name: "a go to a step that does not exist",
    files: { "docs/zz-proc.md": PROC("1. Look up the payment with `get_payment`.\n   - If it is released, then go to step 7.\n2. Stop.\n") },
    issues: [["SOP_BAD_STEP_REFERENCE", "docs/zz-proc.md", 13]],
    documents: 5,
  },
  {
    name: "a reference to a clause defined nowhere",
    files: { "docs/zz-ref.md": doc({ id: "zz-ref", title: "Ref", kind: "faq" }, "# Q\n\nSee the approval rule (PAY-9.9) for details.\n") },
    issues: [["SOP_UNKNOWN_CLAUSE", "docs/zz-ref.md", 10]],
    documents: 5,
  },
  {
    name: "a formal rule whose clause no current document defines",
    files: { "world.yaml": `${BASE_WORLD}  - id: R-GHOST\n    clause: { document: cancellation-faq, clause: FAQ-1 }\n    kind: protection\n    description: Refers to a clause nobody wrote.\n` },
    issues: [["SOP_RULE_CLAUSE_MISSING", "world.yaml", 88]],
    documents: 4,
  },
];

describe("check-sources reports every bad input with its code, file and line", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const dir = makeDomain(Object.fromEntries(Object.entries(c.files).filter(([, v]) => typeof v === "string" || v === null)) as Record<string, string | null>);
      for (const [rel, v] of Object.entries(c.files)) if (Buffer.isBuffer(v)) writeFileSync(join(dir, rel), v);
      c.setup?.(dir);
      const r = checkDomain(dir);
      expect(r.issues.map((i) => [i.code, relative(dir, i.file ?? ""), i.line])).toEqual(c.issues);
      expect(r.documents).toBe(c.documents);

      const out: string[] = [];
      vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
        out.push(String(s));
        return true;
      });
      const code = await main(["node", "synth", "check-sources", dir]);
      expect(code).toBe(1);
      const text = out.join("");
      expect(text).toContain(`[${c.issues[0]![0]}]`);
      expect(text.trim().split("\n").at(-1)).toBe(`${dir}: ${c.documents} of ${r.documentFiles} document${r.documentFiles === 1 ? "" : "s"} loaded, ${c.issues.length} problem${c.issues.length === 1 ? "" : "s"}`);
    });
  }
});

describe("check-sources on a clean domain", () => {
  it("reports nothing and exits 0", async () => {
    const r = checkDomain(BASE_DOMAIN);
    expect(r.issues).toEqual([]);
    expect(r.documents).toBe(4);
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((s: string | Uint8Array) => {
      out.push(String(s));
      return true;
    });
    expect(await main(["node", "synth", "check-sources", BASE_DOMAIN])).toBe(0);
    expect(out.join("")).toBe(`${BASE_DOMAIN}: 4 of 4 documents loaded, ok\n`);
  });
});
