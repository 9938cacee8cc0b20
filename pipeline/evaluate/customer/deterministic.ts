import { ScriptedCustomer } from "../../world/customer-sim.js";
import { PROPOSALS_TABLE } from "../../world/schema-sql.js";
import type { Customer, CustomerInput } from "./types.js";
import type { Task } from "../../schemas/index.js";

/** A proposal id as the world writes them (`PR-0001`). */
const PROPOSAL_ID = /\bPR-\d{4,}\b/g;
const ASKS_APPROVAL = /\bapprov/i;

/**
 * The deterministic customer (`--user-sim deterministic`): the scripted customer of the world
 * runtime. A message that asks for approval and names an existing proposal is an approval request
 * in the agent's own words: the customer decides on that proposal exactly as on an approval action
 * (only terms it agreed to). Any other message is answered as the scripted customer answers.
 */
export function deterministicCustomer(input: Omit<CustomerInput, "task" | "seed"> & { task: Pick<Task, "scenario">; seed?: number }): Customer {
  const { task, episode } = input;
  const scripted = new ScriptedCustomer(task, episode);
  const existing = (text: string): string | null => {
    if (!ASKS_APPROVAL.test(text)) return null;
    for (const id of text.match(PROPOSAL_ID) ?? []) {
      if (episode.read(`SELECT 1 FROM ${PROPOSALS_TABLE} WHERE proposal_id = ?`, [id]).length > 0) return id;
    }
    return null;
  };
  return {
    spec: "deterministic",
    open: async () => scripted.open().text ?? "",
    answer: async (text) => {
      const id = existing(text);
      if (id === null) {
        const r = scripted.answer(text);
        return { text: r.reply.text ?? "", facts: r.facts };
      }
      episode.say("agent", text);
      const r = scripted.decide(id);
      const ok = r.outcome?.status === "executed";
      if (r.reply && !ok) return { text: r.reply.text ?? "", facts: [] };
      // The approval itself is the customer-side operation in the trace; the agent reads its outcome
      // (and any correction the customer made right after approving).
      return { text: r.reply?.text ?? "", facts: [], action: { proposal_id: id, status: r.outcome?.status ?? "errored", approved: ok, result: r.outcome?.result ?? null } };
    },
    approve: async (proposalId) => {
      const r = scripted.approve(proposalId);
      return { outcome: r.outcome, text: r.reply?.text ?? null };
    },
    usage: () => null,
  };
}
