import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { IngestCache, ingestDocuments, ingestDocumentsSync, outlineText, type ListBlock, type TableBlock } from "../../pipeline/sources/ingest.js";
import { outlineKey } from "../../pipeline/sources/ingest-cache.js";

const TEXT = `---
id: demo
title: Demo
---
Intro with \`get_payment\`.

# Release {#release-doc}

- **PAY-2.1** Payments above EUR 250,000.00 need approval. Exception: own accounts.
- plain item

## Procedure: Release a payment {#payment-release}

1. Retrieve it with \`get_payment\`.
2. Check the amount.
   - If the amount is high, then go to step 3; otherwise stop.

   | Amount | Outcome |
   |---|---|
   | high | go to step 3 |
3. Release it.

**PAY-3.1.** A paragraph clause
over two lines.
`;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("outline of a document", () => {
  const o = outlineText(TEXT);

  it("builds the heading tree with file lines, titles and explicit ids", () => {
    expect(o.sections.map((s) => [s.depth, s.title, s.anchor, s.parent, s.line_start, s.line_end])).toEqual([
      [0, "", null, null, 5, 5],
      [1, "Release", "release-doc", null, 7, 24],
      [2, "Procedure: Release a payment", "payment-release", 1, 12, 24],
    ]);
    expect(o.line_count).toBe(24);
  });

  it("keeps inline code names with their lines", () => {
    const intro = o.sections[0]?.blocks[0];
    expect(intro).toEqual({ type: "paragraph", text: "Intro with `get_payment`.", codes: [{ value: "get_payment", line: 5 }], clause: null, line_start: 5, line_end: 5 });
  });

  it("reads ordered lists with printed numbers, nested lists and nested tables", () => {
    const list = o.sections[2]?.blocks[0] as ListBlock;
    expect(list.ordered).toBe(true);
    expect(list.items.map((i) => [i.number, i.text, i.line_start, i.line_end])).toEqual([
      [1, "Retrieve it with `get_payment`.", 14, 14],
      [2, "Check the amount.", 15, 20],
      [3, "Release it.", 21, 21],
    ]);
    const nested = list.items[1]?.blocks ?? [];
    expect(nested.map((b) => b.type)).toEqual(["list", "table"]);
    expect((nested[0] as ListBlock).items[0]?.text).toBe("If the amount is high, then go to step 3; otherwise stop.");
    const table = nested[1] as TableBlock;
    expect(table.header.map((c) => c.text)).toEqual(["Amount", "Outcome"]);
    expect(table.rows).toEqual([{ line: 20, cells: [{ text: "high", codes: [] }, { text: "go to step 3", codes: [] }] }]);
  });

  it("finds clause anchors in list items and paragraphs (trailing punctuation dropped)", () => {
    expect(o.anchors).toEqual([
      { id: "PAY-2.1", section: 1, line_start: 9, line_end: 9 },
      { id: "PAY-3.1", section: 2, line_start: 23, line_end: 24 },
    ]);
    const item = (o.sections[1]?.blocks[0] as ListBlock).items[0];
    expect(item?.clause).toEqual({ id: "PAY-2.1", body: "Payments above EUR 250,000.00 need approval. Exception: own accounts." });
    expect((o.sections[1]?.blocks[0] as ListBlock).items[1]?.clause).toBeNull();
  });

  it("counts lines without front matter as file lines", () => {
    const plain = outlineText("# Title\n\nText.\n");
    expect(plain.sections.map((s) => [s.depth, s.line_start, s.line_end])).toEqual([
      [0, 1, 1],
      [1, 1, 3],
    ]);
  });
});

describe("ingestion with a cache", () => {
  const docs = [
    { file: "a.md", text: TEXT },
    { file: "b.md", text: `${TEXT}\nMore.\n` },
    { file: "c.md", text: TEXT },
  ];

  it("parses each distinct text once and serves unchanged texts from memory", () => {
    const cache = new IngestCache();
    const first = ingestDocumentsSync(docs, { cache });
    expect(first.map((d) => [d.file, d.cached])).toEqual([
      ["a.md", false],
      ["b.md", false],
      ["c.md", false],
    ]);
    expect(first[2]?.outline).toBe(first[0]?.outline);
    expect(cache.size).toBe(2);
    const again = ingestDocumentsSync(docs, { cache });
    expect(again.map((d) => d.cached)).toEqual([true, true, true]);
    expect(again[1]?.outline).toEqual(first[1]?.outline);
  });

  it("writes outlines to disk and reads them back in a new process's cache; ignores unreadable files", () => {
    const dir = mkdtempSync(join(tmpdir(), "foundry-ingest-"));
    dirs.push(dir);
    ingestDocumentsSync(docs, { cache: new IngestCache({ dir }) });
    expect(readdirSync(dir).sort()).toEqual([`${outlineKey(docs[0]!.text)}.json`, `${outlineKey(docs[1]!.text)}.json`].sort());
    const fresh = new IngestCache({ dir });
    const again = ingestDocumentsSync(docs, { cache: fresh });
    expect(again.map((d) => d.cached)).toEqual([true, true, true]);
    expect(fresh.hits).toBe(3);
    writeFileSync(join(dir, `${outlineKey(docs[0]!.text)}.json`), "{ not json");
    const broken = new IngestCache({ dir });
    const third = ingestDocumentsSync(docs, { cache: broken });
    expect(third.map((d) => d.cached)).toEqual([false, true, false]);
    expect(third[0]?.outline).toEqual(outlineText(TEXT));
  });

  it("gives the same outlines on worker threads as on the calling thread, in input order", async () => {
    const many = Array.from({ length: 24 }, (_, i) => ({ file: `d${i}.md`, text: `${TEXT}\nNote ${i}.\n` }));
    const parallel = await ingestDocuments(many, { parallel: true, workers: 1 });
    const sync = ingestDocumentsSync(many);
    expect(parallel.map((d) => d.file)).toEqual(many.map((d) => d.file));
    expect(parallel.map((d) => d.outline)).toEqual(sync.map((d) => d.outline));
  });
});
