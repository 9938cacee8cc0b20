import { readFileSync } from "node:fs";

/** Version of the pipeline, from package.json; part of every release manifest. */
export const PIPELINE_VERSION: string = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;
