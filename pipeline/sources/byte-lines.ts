/** 1-based line of a byte offset (counts `\n` bytes before it). */
export function lineOfByte(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < bytes.length; i++) if (bytes[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that breaks UTF-8 (bad lead byte, missing continuation, overlong or surrogate form), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let n: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) [n, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [n, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [n, min] = [3, 0x10000];
    else return i;
    let cp = b & (0xff >> (n + 2));
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}
