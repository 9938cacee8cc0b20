import { readFileSync } from "node:fs";
import { FoundryError } from "../../core/errors.js";
import { actionsOf } from "../../../validation/episode-actions.js";
import { parseTrace } from "../../../validation/parse-trace.js";
import type { AgentFactory } from "./types.js";
import { performActions } from "./script.js";

/**
 * `replay:FILE`: performs, in order, the agent actions of a trace file in the release's trace
 * format (how a reviewer audits a submitted trace). The file holds one task's trace, so only that
 * task is evaluated.
 */
export function replayAgent(spec: string, file: string): AgentFactory {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new FoundryError("USAGE", `--agent replay:FILE: cannot read ${file}: ${(e as Error).message}`, { file, path: "--agent" }, spec);
  }
  let trace;
  try {
    trace = parseTrace(data, `replay file ${file}`);
  } catch (e) {
    throw new FoundryError("USAGE", `--agent ${spec}: ${(e as Error).message}`, { file, path: "--agent" }, spec);
  }
  const actions = actionsOf(trace);
  return {
    spec,
    asyncCustomer: true,
    tasks: [trace.task],
    create: () => ({ spec, asyncCustomer: true, run: (session) => performActions(session, actions) }),
  };
}
