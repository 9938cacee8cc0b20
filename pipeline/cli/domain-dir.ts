import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { FoundryError } from "../core/errors.js";
import { checkDomainId } from "../core/domain-id.js";

/** A command's DOMAIN argument: a domain folder, or a domain id under `sources`. */
export function domainDir(arg: string, sources: string): string {
  if (existsSync(arg) && statSync(arg).isDirectory()) return arg;
  const under = join(sources, checkDomainId(arg, "domain"));
  if (existsSync(under) && statSync(under).isDirectory()) return under;
  throw new FoundryError("USAGE", `no domain folder '${arg}' (nor ${under})`, { file: arg });
}
