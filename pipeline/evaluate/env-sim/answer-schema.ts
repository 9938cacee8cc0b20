import { z } from "zod";
import type { EnvTool, ResultShape } from "../../schemas/env-config.js";
import type { PlannedFault } from "../../world/fault-plan.js";

/** A JSON object's own keys. */
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Why `value` does not fit `shape` (null when it does). `partial`: an implicit fault may drop fields and rows. */
export function shapeProblem(shape: ResultShape, value: unknown, partial = false): string | null {
  const rowProblem = (row: unknown, where: string, fields: readonly string[], exact: boolean): string | null => {
    if (!isObject(row)) return `${where} must be an object with the fields ${fields.join(", ")}`;
    const missing = partial ? [] : fields.filter((f) => !(f in row));
    const extra = exact ? Object.keys(row).filter((k) => !fields.includes(k)) : [];
    if (missing.length > 0) return `${where} lacks the declared field(s) ${missing.join(", ")}`;
    if (extra.length > 0) return `${where} has undeclared field(s) ${extra.join(", ")}; the declared fields are ${fields.join(", ")}`;
    return null;
  };
  if (shape.kind === "none") return value === null || value === undefined ? null : "this operation returns nothing: result must be null";
  if (shape.kind === "object") return rowProblem(value, "result", shape.fields, false);
  if (shape.many) {
    if (!Array.isArray(value)) return `result must be a list of rows with the fields ${shape.fields.join(", ")}`;
    for (let i = 0; i < value.length; i++) {
      const p = rowProblem(value[i], `result[${i}]`, shape.fields, true);
      if (p) return p;
    }
    return null;
  }
  return value === null ? null : rowProblem(value, "result", shape.fields, true);
}

/**
 * The structured answer the simulator must give for one call of `tool` (the operation itself for
 * invoke_capability), checked here so that the runtime shows the model what is wrong and asks
 * again: `executed` with a result of the declared shape (and a proposal id when the operation
 * proposes), `rejected` with one of the operation's preconditions and its message word for word,
 * or — only when a fault rule was handed over — `faulted` as the rule says.
 */
export function answerSchema(tool: EnvTool, fault: PlannedFault | null) {
  return z
    .object({
      status: z.enum(["executed", "rejected", "faulted"]).describe("executed: the call ran; rejected: a precondition failed (nothing changed); faulted: only when a fault rule is given for this call."),
      result: z.unknown().optional().describe("executed: the answer in the tool's declared result shape; faulted (implicit): the degraded answer."),
      precondition: z.string().optional().describe("rejected: the id of the failed precondition."),
      message: z.string().optional().describe("rejected: its message, word for word; faulted (explicit): the error message."),
      proposal_id: z.string().optional().describe("executed, for an operation that records a proposal: its id (PR-0001, …)."),
      detail: z.string().optional().describe("faulted: what was degraded (implicit) or which error was returned (explicit)."),
    })
    .strict()
    .superRefine((a, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
      if (a.status === "faulted") {
        if (!fault) issue("status", "no fault rule applies to this call: answer executed or rejected");
        else if (fault.mode === "implicit") {
          const p = tool.result ? shapeProblem(tool.result, a.result, true) : null;
          if (p) issue("result", `${p} (an implicit fault degrades the declared shape: fields and rows may be missing, none may be invented)`);
        } else if (!a.message) issue("message", `an explicit ${fault.type} fault answers with an error message`);
        return;
      }
      if (fault) issue("status", `the fault rule for this call says: answer status faulted (${fault.mode} ${fault.type})`);
      if (a.status === "rejected") {
        const pre = tool.preconditions.find((p) => p.id === a.precondition);
        if (!pre) issue("precondition", tool.preconditions.length === 0 ? `${tool.name} never refuses a call: answer executed` : `must be one of ${tool.preconditions.map((p) => p.id).join(", ")}`);
        else if (a.message !== pre.message) issue("message", `must be the precondition's message word for word: "${pre.message}"`);
        return;
      }
      const p = tool.result ? shapeProblem(tool.result, a.result ?? null) : null;
      if (p) issue("result", p);
      if (tool.proposes && !a.proposal_id) issue("proposal_id", `${tool.name} records a ${tool.proposes} proposal: give its proposal_id`);
    })
    .meta({ title: "env_sim_answer" });
}
export type SimAnswer = z.infer<ReturnType<typeof answerSchema>>;
