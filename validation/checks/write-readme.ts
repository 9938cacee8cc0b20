import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderChecksReadme } from "./readme.js";

// Regenerates README.md beside this file from the registry: `node --import tsx validation/checks/write-readme.ts`.
writeFileSync(fileURLToPath(new URL("./README.md", import.meta.url)), renderChecksReadme());
