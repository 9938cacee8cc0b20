/** The cause of a drop reason, for tallies: the gate before the first colon (`solvability: …`), or `duplicate`. */
export function dropCause(reason: string | null | undefined, fallback = ""): string {
  return ((reason ?? fallback).split(":")[0] as string).replace(/^duplicate of .*/, "duplicate");
}
