import type { z } from "zod";
import { DomainCard } from "./domain-card.js";
import { DocumentFrontMatter } from "./document-front-matter.js";
import { Sop } from "./sop.js";
import { WorldModel } from "./world-model.js";
import { Task } from "./task.js";
import { AcceptanceCheck } from "./acceptance-check.js";
import { Trace } from "./trace.js";
import { ValidationReport } from "./validation-report.js";
import { ReleaseManifest } from "./release-manifest.js";
import { EpisodeResult, EvaluationResult } from "./evaluation-result.js";
import { BuildRecord } from "./build-record.js";
import { EnvConfigFile, EnvConfigShared } from "./env-config.js";

/** Every artifact the foundry reads or writes, by the name its JSON Schema file gets. */
export const ARTIFACTS = {
  "domain-card": DomainCard,
  "document-front-matter": DocumentFrontMatter,
  sop: Sop,
  "world-model": WorldModel,
  task: Task,
  "acceptance-check": AcceptanceCheck,
  trace: Trace,
  "validation-report": ValidationReport,
  "release-manifest": ReleaseManifest,
  "evaluation-result": EvaluationResult,
  "evaluation-episode": EpisodeResult,
  "build-record": BuildRecord,
  "env-config": EnvConfigFile,
  "env-config-shared": EnvConfigShared,
} as const satisfies Record<string, z.ZodType>;

export type ArtifactName = keyof typeof ARTIFACTS;
export const ARTIFACT_NAMES = Object.keys(ARTIFACTS).sort() as ArtifactName[];

export * from "./provenance.js";
export * from "./domain-card.js";
export * from "./document-front-matter.js";
export * from "./sop.js";
export * from "./world-model.js";
export * from "./task.js";
export * from "./acceptance-check.js";
export * from "./trace.js";
export * from "./validation-report.js";
export * from "./release-manifest.js";
export * from "./evaluation-result.js";
export * from "./build-record.js";
export * from "./env-config.js";
export * from "./simulated.js";
