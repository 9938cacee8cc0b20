import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./repo-root.js";

/** Version of the pipeline, from package.json; part of every release manifest. */
export const PIPELINE_VERSION: string = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;
