import { describe, expect, it } from "vitest";
import { foreignParams, leadingKeyword, namedParams, tokenizeSql } from "../../pipeline/world/sql-text.js";

describe("sql-text", () => {
  it("finds parameters and the keyword outside literals and comments", () => {
    const t = tokenizeSql("/* c */ UPDATE main.\"accounts\" SET note = ':not_a_param -- x' WHERE id = :id -- :nope\n AND b = @b");
    expect(leadingKeyword(t)).toBe("UPDATE");
    expect(namedParams(t)).toEqual(["id"]);
    expect(foreignParams(t)).toEqual(["@b"]);
  });
});
