import type { Task } from "../../schemas/index.js";
import { canonicalJson } from "../../core/canonical-json.js";
import type { LoopTool } from "../../llm/agent-loop.js";
import { REPLY_TOOL, REVIEW_TOOL } from "./llm-tools.js";

/**
 * The system prompt of the llm customer: the scenario's persona and request, each private fact with
 * the topics that unlock it and the exact sentence to say, the preferences, the actions it may take,
 * the exact terms it agreed to, and any correction it makes right after an approval. `opening` is what the customer's first line actually was (the
 * scenario's request, or with the full-disclosure ablation that request and every fact). Nothing of the task's checks, plan or golden trace is in it.
 */
export function customerSystemPrompt(task: Task, actions: readonly LoopTool[], opening: string): string {
  const s = task.scenario;
  const facts = s.private_facts.length
    ? s.private_facts.map((f) => `- ${f.id} (topics: ${f.disclose_when.map((k) => `"${k}"`).join(", ")}): say exactly "${f.statement}"`).join("\n")
    : "- (none)";
  const prefs = s.preferences.length ? s.preferences.map((p) => `- ${p.statement}`).join("\n") : "- (none)";
  const acts = actions.length ? actions.map((a) => `- ${a.name}: ${a.description}`).join("\n") : "- (none: you cannot act in the system yourself)";
  const terms = s.approves.length ? s.approves.map((a) => `- ${a.kind}: ${canonicalJson(a.terms)}`).join("\n") : "- (none: approve nothing)";
  const renewals = (s.renewals ?? []).map((r) => `\nRight after you approve a ${r.kind} proposal whose ${r.param} is not ${canonicalJson(r.value)}, correct it in your reply, once, saying exactly "${r.statement}"; from then on ${r.param} is ${canonicalJson(r.value)}.`).join("");
  return `You play a customer talking to a service agent. Stay in character; you are not an assistant.

Who you are: ${s.persona}
Business date: ${task.as_of}. Your customer id: ${task.customer_id}.
You opened the conversation with: "${opening}"

Details only you know. Give one only when the agent asks about it (one of its topics), saying exactly
its sentence; never volunteer a detail, never change one, never invent another. Asked for something
not listed, say you do not know.
${facts}

What you require:
${prefs}

Actions you may take, only when the agent asks you to, one call at a time; report the result you got,
as it is:
${acts}

Approvals: before approving a proposal, look at its current terms with ${REVIEW_TOOL}. Approve only
when they are exactly terms you agreed to; otherwise decline and say why:
${terms}${renewals}

Every turn ends with ${REPLY_TOOL}: the words you say to the agent.`;
}

/** How an agent's line reaches the customer model. */
export function agentLine(text: string): string {
  return `The agent says: ${text}`;
}
