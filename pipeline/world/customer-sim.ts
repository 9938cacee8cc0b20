import type { Task, TraceEvent } from "../schemas/index.js";
import { canonicalJson } from "../core/canonical-json.js";
import { contentWords } from "../core/words.js";
import type { Episode } from "./episode.js";
import type { ToolOutcome } from "./types.js";
import { PROPOSALS_TABLE } from "./schema-sql.js";

/**
 * The deterministic customer simulator (the `user-sim` role's embedded strategy). It says only what
 * its scenario allows: the opening request, a private fact when the agent asks about one of the
 * fact's topics, and an approval only for a proposal whose terms are exactly ones it agreed to;
 * right after approving terms its scenario corrects (`renewals`), it says the correction, and the
 * fact has its new value from then on.
 * Every line and action goes through the episode, so it is in the trace.
 */
export class ScriptedCustomer {
  readonly #task: Pick<Task, "scenario">;
  readonly #episode: Episode;
  readonly #disclosed = new Set<string>();
  /** Params the customer has corrected after an approval (scenario renewals said so far). */
  readonly #corrected = new Map<string, string>();

  constructor(task: Pick<Task, "scenario">, episode: Episode) {
    this.#task = task;
    this.#episode = episode;
  }

  /** Facts disclosed so far, by id. */
  get disclosed(): ReadonlySet<string> {
    return this.#disclosed;
  }

  /** The customer's first message. */
  open(): TraceEvent {
    return this.#episode.say("customer", this.#task.scenario.opening_request);
  }

  /**
   * The agent says `text` to the customer; the customer answers. A fact is disclosed when one of its
   * `disclose_when` topics occurs in the agent's words (case-insensitive), or every content word of
   * the topic does, in any order and form ("the reference of the invoice" for "invoice reference"),
   * outside brackets (a format hint is not a question), so a question phrased in the documents'
   * words is understood.
   */
  answer(text: string): { reply: TraceEvent; facts: string[] } {
    this.#episode.say("agent", text);
    const lower = text.toLowerCase();
    // Words in brackets are hints (a format such as "REX<country><number>-<invoice>", an example),
    // not what is asked about: a topic counts by its words only outside them.
    const said = new Set(contentWords(text.replace(/\([^()]*\)|<[^<>]*>/g, " ")).map((w) => w.stem));
    const asked = (topic: string) => {
      const words = contentWords(topic);
      return lower.includes(topic.toLowerCase()) || (words.length > 0 && words.every((w) => said.has(w.stem)));
    };
    const hits = this.#task.scenario.private_facts.filter((f) => f.disclose_when.some(asked));
    for (const f of hits) this.#disclosed.add(f.id);
    // A fact corrected after an approval is stated with its new value.
    const reply =
      hits.length > 0
        ? hits.map((f) => this.#corrected.get(f.param ?? f.id) ?? f.statement).join(" ")
        : "I'm not sure what you need from me there. Could you tell me exactly which detail you are missing?";
    return { reply: this.#episode.say("customer", reply, hits.map((f) => f.id)), facts: hits.map((f) => f.id) };
  }

  /**
   * The agent asks the customer to approve proposal `proposalId`. The customer approves (through the
   * customer-side operation that approves that kind, if the scenario permits it) only when the
   * proposal's terms equal terms the scenario agreed to; otherwise it declines in words.
   */
  approve(proposalId: string): { outcome: ToolOutcome | null; reply: TraceEvent | null } {
    this.#episode.say("agent", `Please review and approve proposal ${proposalId}.`);
    return this.decide(proposalId);
  }

  /**
   * The customer's decision on proposal `proposalId` once the agent asked for it in its own words
   * (the request is already in the trace): approve it, or decline in words, as `approve` does.
   */
  decide(proposalId: string): { outcome: ToolOutcome | null; reply: TraceEvent | null } {
    const row = this.#episode.read(`SELECT kind, terms_json FROM ${PROPOSALS_TABLE} WHERE proposal_id = ?`, [proposalId])[0] as { kind: string; terms_json: string } | undefined;
    if (!row) return { outcome: null, reply: this.#episode.say("customer", `I can't find a proposal ${proposalId}.`) };
    const agreed = this.#task.scenario.approves.some((a) => a.kind === row.kind && canonicalJson(a.terms) === canonicalJson(JSON.parse(row.terms_json)));
    const op = [...this.#episode.world.operations.values()].find((o) => o.op.side === "customer" && o.op.approves === row.kind);
    if (!agreed || !op || !this.#task.scenario.permitted_actions.includes(op.op.name)) {
      return { outcome: null, reply: this.#episode.say("customer", `No, I can't approve ${proposalId} on those terms.`) };
    }
    const outcome = this.#episode.invoke({ name: op.op.name, args: { proposal_id: proposalId }, actor: "customer" });
    if (outcome.status !== "executed") return { outcome, reply: null };
    // Terms changed after the approval (an amount corrected): said once, right after approving.
    const terms = JSON.parse(row.terms_json) as Record<string, unknown>;
    const renewal = (this.#task.scenario.renewals ?? []).find((r) => r.kind === row.kind && r.param in terms && canonicalJson(terms[r.param]) !== canonicalJson(r.value) && !this.#corrected.has(r.param));
    if (!renewal) return { outcome, reply: null };
    this.#corrected.set(renewal.param, renewal.statement);
    return { outcome, reply: this.#episode.say("customer", renewal.statement) };
  }
}
