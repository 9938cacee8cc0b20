import { z } from "zod";

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, "must be a sha256 hex digest");

/** `manifest.json` at the root of a frozen release. */
export const ReleaseManifest = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/).describe("Release name."),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, "must be a semantic version X.Y.Z").describe("Release version."),
    files: z.record(z.string(), Sha256).describe("Release-relative path (POSIX) → sha256 of its bytes; every file but the manifest."),
    root_hash: Sha256.describe("sha256 over the canonical JSON of `files`."),
    seed: z.number().int().describe("Seed the release was built with."),
    replaces: z.string().regex(/^\d+\.\d+\.\d+$/).nullable().default(null).describe("The version of the same release this one replaces (kept in git history), or null for a first version."),
    pipeline: z.object({ version: z.string().describe("Pipeline version (package.json)."), revision: z.string().describe("Git revision of the sources the release was built from.") }).strict().describe("What built the release."),
    packages: z.record(z.string(), z.string()).describe("Exact versions of the packages that shape the output."),
    models: z.record(z.string(), z.string()).describe("Agent role → `deterministic` or the provider:model and settings used."),
    counts: z
      .object({
        domains: z.number().int().describe("Domains in the release."),
        documents: z.number().int().describe("Knowledge documents, every version."),
        tasks: z.number().int().describe("Released tasks."),
        checks: z.number().int().describe("Acceptance checks over all tasks."),
        by_domain: z
          .record(z.string(), z.object({ industry: z.string().describe("Industry category."), documents: z.number().int().describe("Documents."), tasks: z.number().int().describe("Tasks.") }).strict())
          .describe("Counts per domain."),
      })
      .strict()
      .describe("What the release holds."),
  })
  .strict()
  .describe("Manifest of a frozen benchmark release.");
export type ReleaseManifest = z.infer<typeof ReleaseManifest>;
