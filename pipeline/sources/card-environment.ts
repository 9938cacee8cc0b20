import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { DomainEnvironment } from "../schemas/simulated.js";

/**
 * What a domain folder's card says of its environment, read before anything else of the folder
 * (the build chooses its branch, and whether to draft a world, from it): `simulated` only when the
 * card says so; anything else — no card, a card that does not parse — is `executable`, and the
 * ingest node's validation names what is wrong with it.
 */
export function cardEnvironment(dir: string): DomainEnvironment {
  const file = join(dir, "domain.yaml");
  if (!existsSync(file)) return "executable";
  try {
    const data = parse(readFileSync(file, "utf8"), { maxAliasCount: 0 }) as unknown;
    return data !== null && typeof data === "object" && (data as { environment?: unknown }).environment === "simulated" ? "simulated" : "executable";
  } catch {
    return "executable";
  }
}
