import { stringify } from "yaml";
import { z } from "zod";
import type { WorldDraftOutcome, WorldDrafter } from "../types.js";
import type { ReviewItem, WorldReview } from "../../schemas/world-review.js";
import { askModel, type LlmStrategyOptions } from "../llm/structured.js";
import { checkDraft, type DraftCheck } from "./check-draft.js";
import { documentsOnly, draftWorldDeterministic } from "./deterministic.js";
import { feedbackPrompt, firstPrompt, WORLD_DRAFT_SYSTEM } from "./prompt.js";

/** The model's answer: the complete world.yaml text. */
export const WorldDraftAnswer = z.object({ world_yaml: z.string().min(1).describe("The complete world.yaml text.") }).strict().meta({ title: "world-draft" });

export interface LlmWorldDrafterOptions extends LlmStrategyOptions {
  /** Drafts the model may write (the first and its corrections), default 3. */
  rounds?: number;
  /** The model's name as recorded in the review list. */
  modelName: string;
}

/**
 * The environment builder's llm strategy: the model drafts the complete world (tables, fixed and
 * generated rows, operations, events, rules) from the documents, starting from the deterministic
 * draft; every draft goes through checkDraft, and what it finds (schema, compile, SQL, structure,
 * then "workflow X has no feasible unit because …") goes back to the model, for at most `rounds`
 * drafts. A draft whose only remaining problems are feasibility ones is usable and is written, the
 * survey's findings in its review list; a draft that never passes is not written: the review list
 * keeps it and its last problems.
 */
export class LlmWorldDrafter implements WorldDrafter {
  constructor(readonly opts: LlmWorldDrafterOptions) {}

  async draft(dir: string): Promise<WorldDraftOutcome> {
    const { loaded } = documentsOnly(dir);
    const card = loaded.card as NonNullable<typeof loaded.card>;
    const seed = draftWorldDeterministic(dir);
    const documents = loaded.documents.map((d) => `--- ${d.file} (${d.meta.kind} ${d.meta.id} ${d.meta.version})\n${d.body}`).join("\n\n");
    const cardText = stringify(card);
    const rounds = this.opts.rounds ?? 3;
    let prompt = firstPrompt(cardText, documents, seed.yaml, seed.review.items.map((i) => `${i.id} ${i.subject}: ${i.what}`).join("\n"));
    let last = "";
    let check: DraftCheck | null = null;
    let usable: { yaml: string; check: DraftCheck } | null = null;
    let n = 0;
    for (; n < rounds; n++) {
      const answer = await askModel("environment-builder", this.opts, WorldDraftAnswer, WORLD_DRAFT_SYSTEM, prompt, card.id);
      last = answer.world_yaml;
      check = checkDraft(loaded, last);
      if (check.problems.length === 0) usable = { yaml: last, check };
      if (check.problems.length === 0 && check.feasibility.length === 0) break;
      prompt = feedbackPrompt(cardText, documents, last, [...check.problems, ...check.feasibility]);
    }
    const rounds_ = Math.min(n + 1, rounds);
    const passed = check !== null && check.problems.length === 0 && check.feasibility.length === 0;
    const items: Array<Omit<ReviewItem, "id">> = [];
    if (!usable) for (const p of check?.problems ?? []) items.push({ kind: "model_errors", subject: "world.yaml", what: `the model's last draft still has this problem: ${p}`, where: [] });
    for (const f of usable?.check.feasibility ?? []) items.push({ kind: "feasibility", subject: `workflow ${/^workflow (\S+)/.exec(f)?.[1] ?? ""}`, what: f, where: [] });
    const world = usable?.check.world ?? null;
    const review: WorldReview = {
      domain: card.id,
      strategy: "llm",
      model: this.opts.modelName,
      world_written: usable !== null,
      summary: {
        tables: world?.tables.length ?? 0,
        columns: world?.tables.reduce((s, t) => s + t.columns.length, 0) ?? 0,
        operations: world?.operations.length ?? 0,
        parameters: world?.operations.reduce((s, o) => s + Object.keys(o.params).length, 0) ?? 0,
        preconditions: world?.operations.reduce((s, o) => s + o.preconditions.length, 0) ?? 0,
        effects: world?.operations.reduce((s, o) => s + o.effects.length, 0) ?? 0,
        rules: world?.rules.length ?? 0,
        review_items: items.length,
      },
      items: items.map((it, i) => ({ id: `W${String(i + 1).padStart(3, "0")}`, ...it })),
      llm: { rounds: rounds_, passed, last_errors: passed ? [] : [...(check?.problems ?? []), ...(check?.feasibility ?? [])], last_draft: usable ? null : last },
    };
    return { yaml: usable?.yaml ?? null, review };
  }
}
