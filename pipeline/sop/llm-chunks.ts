import type { DocumentOutline } from "../sources/outline-types.js";

/** A piece of a document sent to the model: whole sections where they fit, with file line numbers. */
export interface Chunk {
  line_start: number;
  line_end: number;
  /** The lines, each prefixed with its file line number (`12: text`), so the model can cite them. */
  numbered: string;
  /** The raw lines, for checking what the model quotes. */
  lines: string[];
}

/** Ranges of whole sections' own text (heading to the next heading), in document order. */
function sectionRanges(outline: DocumentOutline): Array<[number, number]> {
  const starts = outline.sections.map((s) => s.line_start);
  return starts.map((start, i): [number, number] => [start, (starts[i + 1] ?? outline.line_count + 1) - 1]).filter(([a, z]) => z >= a);
}

/**
 * Split a document into chunks of at most `maxChars` characters along section boundaries; a section
 * longer than that is cut at blank lines (or, failing that, at line boundaries).
 */
export function chunkDocument(text: string, outline: DocumentOutline, maxChars: number): Chunk[] {
  if (!(maxChars >= 200)) throw new RangeError(`Expected \`maxChars\` to be a number from 200 and up, got \`${maxChars}\``);
  const all = text.split(/\r?\n/);
  const lineText = (n: number) => all[n - 1] ?? "";
  const size = (a: number, z: number) => {
    let n = 0;
    for (let l = a; l <= z; l++) n += lineText(l).length + 8;
    return n;
  };
  // Pieces no larger than maxChars: whole sections, or parts of long ones cut at blank lines.
  const pieces: Array<[number, number]> = [];
  for (const [a, z] of sectionRanges(outline)) {
    if (size(a, z) <= maxChars) {
      pieces.push([a, z]);
      continue;
    }
    let start = a;
    let lastBlank = -1;
    for (let l = a; l <= z; l++) {
      if (lineText(l).trim() === "") lastBlank = l;
      if (size(start, l) > maxChars && l > start) {
        const cut = lastBlank > start ? lastBlank : l - 1;
        pieces.push([start, cut]);
        start = cut + 1;
        lastBlank = -1;
      }
    }
    if (start <= z) pieces.push([start, z]);
  }
  const chunks: Chunk[] = [];
  let cur: [number, number] | null = null;
  const flush = () => {
    if (!cur) return;
    const [a, z] = cur;
    const lines: string[] = [];
    for (let l = a; l <= z; l++) lines.push(lineText(l));
    if (lines.some((s) => s.trim() !== "")) chunks.push({ line_start: a, line_end: z, lines, numbered: lines.map((s, i) => `${a + i}: ${s}`).join("\n") });
    cur = null;
  };
  for (const [a, z] of pieces) {
    if (cur && size(cur[0], z) <= maxChars) cur = [cur[0], z];
    else {
      flush();
      cur = [a, z];
    }
  }
  flush();
  return chunks;
}
