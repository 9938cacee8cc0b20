import { describe, expect, it } from "vitest";
import { firstInvalidUtf8, lineOfByte } from "../../pipeline/sources/byte-lines.js";

describe("UTF-8 validation with the offset of the first bad byte", () => {
  it("accepts ASCII and multi-byte characters", () => {
    expect(firstInvalidUtf8(Buffer.from("Café – 東京 😀\n"))).toBe(-1);
  });

  it("finds a Latin-1 byte, a truncated sequence, an overlong form and a surrogate", () => {
    expect(firstInvalidUtf8(Buffer.from([0x41, 0x0a, 0x43, 0xe9, 0x0a]))).toBe(3);
    expect(firstInvalidUtf8(Buffer.from([0x41, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0xaf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x20, 0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });

  it("turns a byte offset into a 1-based line", () => {
    const bytes = Buffer.from("a\nb\nc");
    expect([lineOfByte(bytes, 0), lineOfByte(bytes, 2), lineOfByte(bytes, 4)]).toEqual([1, 2, 3]);
  });
});
