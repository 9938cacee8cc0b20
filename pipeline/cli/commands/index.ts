import type { Command } from "commander";
import { registerSchema } from "./schema.js";
import { registerCheckSources } from "./check-sources.js";
import { registerDemo } from "./demo.js";
import { registerSop } from "./sop.js";
import { registerRelease } from "./release.js";
import { registerAudit } from "./audit.js";
import { registerDiff } from "./diff.js";
import { registerBuild } from "./build.js";
import { registerEvaluate } from "./evaluate.js";
import { registerScore } from "./score.js";
import { registerCompare } from "./compare.js";
import { registerShow } from "./show.js";
import { registerReview } from "./review.js";
import { registerWorker } from "./worker.js";
import { registerQueue } from "./queue.js";

/** Every command of `synth`, in the order `--help` lists them. */
export const COMMANDS: ReadonlyArray<(program: Command) => void> = [registerCheckSources, registerSop, registerBuild, registerSchema, registerDemo, registerRelease, registerAudit, registerDiff, registerEvaluate, registerScore, registerCompare, registerShow, registerReview, registerWorker, registerQueue];
