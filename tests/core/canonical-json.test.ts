import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash, sha256, stableJson } from "../../pipeline/core/canonical-json.js";

describe("canonical JSON and hashes", () => {
  it("orders keys and normalises numbers (RFC 8785)", () => {
    expect(canonicalJson({ b: 1, a: [3, { d: 1.0, c: "x" }] })).toBe('{"a":[3,{"c":"x","d":1}],"b":1}');
  });
  it("gives the same hash for the same content whatever the key order", () => {
    expect(contentHash({ x: 1, y: 2 })).toBe(contentHash({ y: 2, x: 1 }));
    expect(contentHash({ x: 1 })).not.toBe(contentHash({ x: 2 }));
  });
  it("hashes bytes with sha256", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
  it("writes stable, sorted, newline-terminated JSON for files", () => {
    expect(stableJson({ b: 1, a: { d: undefined, c: 2 } })).toBe('{\n  "a": {\n    "c": 2\n  },\n  "b": 1\n}\n');
  });
  it("refuses values that have no JSON form", () => {
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });
});
