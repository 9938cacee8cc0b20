import type { Command } from "commander";
import { registerSchema } from "./schema.js";
import { registerCheckSources } from "./check-sources.js";
import { registerDemo } from "./demo.js";

/** Every command of `synth`, in the order `--help` lists them. */
export const COMMANDS: ReadonlyArray<(program: Command) => void> = [registerCheckSources, registerSchema, registerDemo];
