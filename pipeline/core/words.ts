const STOP = new Set(
  "a an and are as at be been by can for from has have hello here i in is it its me not of on or our please so that the their then this to today us we with you your".split(" "),
);

/** A crude stem, enough to match `release`/`released`, `fund`/`funds`, `account`/`accounts`. */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 4 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

/** Content words of a text, stemmed, in order of appearance (with their character offsets). */
export function contentWords(text: string): Array<{ stem: string; at: number }> {
  return [...text.matchAll(/[A-Za-z][A-Za-z-]*/g)].filter((m) => !STOP.has(m[0].toLowerCase())).map((m) => ({ stem: stem(m[0]), at: m.index }));
}

/** The distinct content words of `a` that occur in `b` (stemmed), how many, and where in `b` the first is. */
export function overlap(a: string, b: string): { count: number; first: number; stems: Set<string> } {
  const mine = new Set(contentWords(a).map((w) => w.stem));
  const hits = contentWords(b).filter((w) => mine.has(w.stem));
  const stems = new Set(hits.map((h) => h.stem));
  return { count: stems.size, first: hits[0]?.at ?? Number.POSITIVE_INFINITY, stems };
}
