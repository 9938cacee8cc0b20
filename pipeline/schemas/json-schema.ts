import { z } from "zod";
import { stableJson } from "../core/canonical-json.js";
import { ARTIFACTS, ARTIFACT_NAMES, type ArtifactName } from "./index.js";
import { SIMULATED_ARTIFACTS, type SimulatedArtifactName } from "./simulated.js";

function jsonSchemaOf(name: string, zod: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(zod, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return { ...schema, $id: `urn:benchmark-foundry:schema:${name}`, title: schema.title ?? name };
}

/** JSON Schema (draft 2020-12) of one artifact, describing the file as written on disk. */
export function artifactJsonSchema(name: ArtifactName): Record<string, unknown> {
  return jsonSchemaOf(name, ARTIFACTS[name]);
}

/** Write every artifact's schema through `write(name, text)`; returns what `write` returned, in name order. */
export function writeJsonSchemas<T>(write: (name: ArtifactName, text: string) => T): T[] {
  return ARTIFACT_NAMES.map((name) => write(name, stableJson(artifactJsonSchema(name))));
}

/** The same for the artifacts of simulated-only domains (a release writes them only when it holds one). */
export function writeSimulatedJsonSchemas<T>(write: (name: SimulatedArtifactName, text: string) => T): T[] {
  return (Object.keys(SIMULATED_ARTIFACTS).sort() as SimulatedArtifactName[]).map((name) => write(name, stableJson(jsonSchemaOf(name, SIMULATED_ARTIFACTS[name]))));
}
