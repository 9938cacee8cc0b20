import { z } from "zod";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 hex digest");

/**
 * `generated/<domain>/build-record.json`: how the domain's generated files were made, written by the
 * collect stage. `synth release` takes the release's provenance from it (never from today's
 * configuration or domain card) and refuses inputs that no longer match it.
 */
export const BuildRecord = z
  .object({
    domain: z.string().describe("Domain id."),
    pipeline_version: z.string().describe("Pipeline version (package.json) that built it."),
    code_fingerprint: Sha256.describe("sha256 over every module the build runs (the import closure of the graph and the strategies)."),
    seed: z.number().int().describe("Seed the domain was built with (the domain card's, or the configured override)."),
    strategies: z.record(z.string(), z.enum(["deterministic", "llm"])).describe("Build role → strategy that ran."),
    models: z.record(z.string(), z.string()).describe("Agent role → `deterministic` or `provider:model`."),
    model_settings: z.record(z.string(), z.unknown()).describe("Settings that shape model output (base URL, temperature) when a model ran; empty otherwise."),
    sources_hash: Sha256.describe("Content hash of sources/<domain>/ (card, world.yaml, every document's text) the build read."),
    sop_hash: Sha256.describe("Content hash of the reviewed SOP the later stages read."),
    world_hash: Sha256.describe("Content hash of the world model and its initial state."),
    files: z.record(z.string(), Sha256).describe("generated/<domain>/-relative path → sha256 of every file the build left for a release."),
  })
  .strict()
  .describe("Provenance of one generated domain.");
export type BuildRecord = z.infer<typeof BuildRecord>;
