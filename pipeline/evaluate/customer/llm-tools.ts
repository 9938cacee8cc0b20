import type { Task } from "../../schemas/index.js";
import { canonicalJson } from "../../core/canonical-json.js";
import type { LoopTool, LoopToolCall, LoopToolResult } from "../../llm/agent-loop.js";
import type { Episode } from "../../world/episode.js";
import { PROPOSALS_TABLE } from "../../world/schema-sql.js";
import { customerToolSpecs } from "../../world/standard-tools.js";
import type { ToolOutcome } from "../../world/types.js";

/** The tool that ends a customer turn with what it says. */
export const REPLY_TOOL = "reply";
/** The read-only tool that shows a proposal's current terms. */
export const REVIEW_TOOL = "review_proposal";

const REPLY: LoopTool = {
  name: REPLY_TOOL,
  description: "Say your answer to the agent. This ends your turn.",
  parameters: { type: "object", properties: { message: { type: "string", description: "What you say to the agent." } }, required: ["message"], additionalProperties: false },
};
const REVIEW: LoopTool = {
  name: REVIEW_TOOL,
  description: "Look at a proposal's kind, status and current terms, and whether they are terms you agreed to.",
  parameters: { type: "object", properties: { proposal_id: { type: "string", description: "Proposal id, e.g. PR-0001." } }, required: ["proposal_id"], additionalProperties: false },
};

/** The customer's tools: reply, review_proposal and the customer-side operations the scenario permits. */
export function customerTools(task: Task, episode: Episode): LoopTool[] {
  const permitted = new Set(task.scenario.permitted_actions);
  return [REPLY, REVIEW, ...customerToolSpecs(episode.world).filter((t) => permitted.has(t.name))];
}

/** What one customer turn did besides talking: every operation it ran, in order. */
export interface TurnActions {
  performed: Array<{ name: string; args: Record<string, unknown>; outcome: ToolOutcome }>;
  reply: string | null;
}

interface ProposalRow {
  proposal_id: string;
  kind: string;
  status: string;
  terms_json: string;
}

function proposal(episode: Episode, id: unknown): ProposalRow | null {
  if (typeof id !== "string") return null;
  return (episode.read(`SELECT proposal_id, kind, status, terms_json FROM ${PROPOSALS_TABLE} WHERE proposal_id = ?`, [id])[0] as ProposalRow | undefined) ?? null;
}

function agreed(task: Task, row: ProposalRow): boolean {
  const terms = canonicalJson(JSON.parse(row.terms_json));
  return task.scenario.approves.some((a) => a.kind === row.kind && canonicalJson(a.terms) === terms);
}

const error = (code: string, message: string): LoopToolResult => ({ content: { error: { code, message } } });

/**
 * Runs one tool call of the customer model. Operations go through the episode as the customer, one
 * call each, and the model reads their real outcome. An approving operation runs only on a proposal
 * whose current terms are exactly agreed ones: the check reads the proposal's row, so a model cannot
 * talk its way past it (declined approvals never reach the world).
 */
export function runCustomerTool(task: Task, episode: Episode, tools: readonly LoopTool[], call: LoopToolCall, turn: TurnActions): LoopToolResult {
  if (!tools.some((t) => t.name === call.name)) return error("unknown_tool", `no tool named "${call.name}"; your tools: ${tools.map((t) => t.name).join(", ")}`);
  if (call.name === REPLY_TOOL) {
    if (typeof call.args.message !== "string" || call.args.message.trim() === "") return error("invalid_argument", "message: say something (a non-empty string)");
    turn.reply = call.args.message;
    return { content: { said: true }, done: true };
  }
  if (call.name === REVIEW_TOOL) {
    const row = proposal(episode, call.args.proposal_id);
    if (!row) return error("not_found", `no proposal ${JSON.stringify(call.args.proposal_id ?? null)}`);
    return { content: { proposal_id: row.proposal_id, kind: row.kind, status: row.status, terms: JSON.parse(row.terms_json), agreed: agreed(task, row) } };
  }
  const approves = episode.world.operations.get(call.name)?.op.approves;
  if (approves !== undefined) {
    const row = proposal(episode, call.args.proposal_id);
    if (!row) return error("not_found", `no proposal ${JSON.stringify(call.args.proposal_id ?? null)}: nothing to approve`);
    if (row.kind !== approves || !agreed(task, row)) {
      return error("not_agreed", `${row.proposal_id} (${row.kind}) has terms ${canonicalJson(JSON.parse(row.terms_json))}, which are not terms you agreed to: decline it in your reply`);
    }
  }
  const outcome = episode.invoke({ name: call.name, args: call.args, actor: "customer" });
  turn.performed.push({ name: call.name, args: call.args, outcome });
  return { content: { status: outcome.status, result: outcome.result ?? null, ...(outcome.reason !== undefined ? { reason: outcome.reason } : {}) } };
}
