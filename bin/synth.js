#!/usr/bin/env node
// Entry point of the `synth` CLI: the sources are TypeScript, loaded through tsx's ESM hook.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../pipeline/cli/main.ts");
process.exitCode = await main(process.argv);
