import { relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDomain } from "../../pipeline/sources/check-sources.js";
import { cleanDomains, doc, makeDomain } from "../sop/domain-helper.js";

afterAll(cleanDomains);

/** [code, file, line, value] of every issue of a copy of the base domain with `files` added. */
function issues(files: Record<string, string>): Array<[string, string, number | undefined, unknown]> {
  const dir = makeDomain(files);
  return checkDomain(dir).issues.map((i) => [i.code, relative(dir, i.file ?? ""), i.line, i.value]);
}

const FAQ = (id: string, supersedes: string, version = '"1"') => doc({ id, title: `FAQ ${id}`, kind: "faq", version, supersedes }, "# Q\n\nText.\n");

describe("supersession links between document versions", () => {
  it("two versions that supersede each other form a cycle, reported once at the first file", () => {
    expect(issues({ "docs/zz-a.md": FAQ("zz-a", "[zz-b@1]"), "docs/zz-b.md": FAQ("zz-b", "[zz-a@1]") })).toEqual([
      ["DOC_SUPERSEDES_CYCLE", "docs/zz-a.md", 7, ["zz-a@1", "zz-b@1", "zz-a@1"]],
    ]);
  });

  it("a longer cycle through bare ids is reported with the whole circle", () => {
    expect(issues({ "docs/zz-a.md": FAQ("zz-a", "[zz-b]"), "docs/zz-b.md": FAQ("zz-b", "[zz-c]"), "docs/zz-c.md": FAQ("zz-c", "[zz-a]") })).toEqual([
      ["DOC_SUPERSEDES_CYCLE", "docs/zz-a.md", 7, ["zz-a@1", "zz-b@1", "zz-c@1", "zz-a@1"]],
    ]);
  });

  it("an older version naming the newer one, which supersedes its own id, is a cycle", () => {
    expect(issues({ "docs/zz-a1.md": FAQ("zz-a", "[zz-a@2]", '"1"'), "docs/zz-a2.md": FAQ("zz-a", "[zz-a]", '"2"') })).toEqual([
      ["DOC_SUPERSEDES_CYCLE", "docs/zz-a1.md", 7, ["zz-a@1", "zz-a@2", "zz-a@1"]],
    ]);
  });

  it("a version that supersedes itself is reported as such", () => {
    expect(issues({ "docs/zz-self.md": FAQ("zz-self", "[zz-self@1]") })).toEqual([["DOC_SUPERSEDES_SELF", "docs/zz-self.md", 7, "zz-self@1"]]);
  });

  it("a version superseding itself instead of its predecessor is reported as self, besides the unlinked duplicate id", () => {
    expect(issues({ "docs/zz-v1.md": FAQ("zz-v", "[]", '"1"'), "docs/zz-v2.md": FAQ("zz-v", "[zz-v@2]", '"2"') })).toEqual([
      ["DOC_DUPLICATE_ID", "docs/zz-v1.md", 2, "zz-v"],
      ["DOC_DUPLICATE_ID", "docs/zz-v2.md", 2, "zz-v"],
      ["DOC_SUPERSEDES_SELF", "docs/zz-v2.md", 7, "zz-v@2"],
    ]);
  });

  it("a chain without a cycle and a newer version superseding its own id are clean", () => {
    expect(issues({ "docs/zz-a.md": FAQ("zz-a", "[zz-b@1]"), "docs/zz-b.md": FAQ("zz-b", "[zz-c]"), "docs/zz-c.md": FAQ("zz-c", "[]") })).toEqual([]);
    expect(issues({ "docs/zz-v1.md": FAQ("zz-v", "[]", '"1"'), "docs/zz-v2.md": FAQ("zz-v", "[zz-v]", '"2"') })).toEqual([]);
  });
});
