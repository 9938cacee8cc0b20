// The probes read words as the scripted customer does: one stemmer for both (pipeline/core/words.ts).
export { contentWords, overlap, stem } from "../../pipeline/core/words.js";
