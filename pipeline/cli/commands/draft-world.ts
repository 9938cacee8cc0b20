import type { Command } from "commander";
import { resolveConfig, modelFor } from "../../core/config.js";
import { FoundryError } from "../../core/errors.js";
import type { LlmRuntime } from "../../llm/llm-runtime.js";
import type { WorldDrafter } from "../../agents/types.js";
import { DeterministicWorldDrafter, refuseExistingWorld, writeDraft } from "../../agents/environment-builder/write-draft.js";
import { domainDir } from "../domain-dir.js";

interface DraftFlags {
  strategy: string;
  force?: boolean;
  json?: boolean;
  sources: string;
  sop: string;
  rounds: string;
}

/** `synth draft-world DOMAIN`: draft sources/<domain>/world.yaml from the documents, with a review list. */
export function registerDraftWorld(program: Command): void {
  program
    .command("draft-world")
    .description("Draft a domain's world.yaml from its documents (the environment builder), with a review list of what it could not derive.")
    .argument("<domain>", "domain folder, or a domain id under --sources")
    .option("--strategy <name>", "deterministic (from the documents' structures) or llm (the environment-builder's model, checked and corrected in a loop)", "deterministic")
    .option("--force", "replace an existing world.yaml")
    .option("--rounds <n>", "llm: drafts the model may write (its first and its corrections)", "3")
    .option("--json", "print a machine-readable report")
    .option("--sources <dir>", "folder that holds the domains", "sources")
    .option("--sop <dir>", "folder that holds sop/<domain>/ (where world-review.json goes)", "sop")
    .addHelpText(
      "after",
      `
Writes <sources>/<domain>/world.yaml and <sop>/<domain>/world-review.json. The draft is made from
the documents alone (an existing world.yaml is never read) and is never written over an existing
world.yaml without --force; nothing is written then.

deterministic: tool manuals give tables, operations, parameters (formats such as BSF-yyyy-nnnn
become patterns), refusal messages (preconditions where their sentence is recognised), "sets …" /
"… becomes …" sentences (effects, a status change as a transition) and returned fields; procedures
give operations they name; rules give clause ids and amounts. What it cannot derive is a review
item (a REVIEW comment in world.yaml too): what is missing and where the documents mention it. What
a tool manual must say for the drafter to pick it up: sources/README.md.

llm: the model configured for the environment-builder role (FOUNDRY_MODEL or
FOUNDRY_MODEL_ENVIRONMENT_BUILDER) drafts the complete world, rows and events included, from the
documents and the deterministic draft. Each draft is checked (schema, shorthands, every SQL
statement prepared, the initial state built, the SOP extracted against it, then the task designer's
feasibility survey) and the problems go back to the model, for at most --rounds drafts. A draft that
never passes is not written as world.yaml: the review list keeps it with its last problems.

Exit codes: 0 world.yaml written (review items may remain), 1 not written (exists without --force,
or the llm draft never passed), 2 usage.

Examples:
  synth draft-world salmon-farm
  synth draft-world sources/salmon-farm --force --json
  FOUNDRY_MODEL_ENVIRONMENT_BUILDER=openai:gpt-4.1 synth draft-world salmon-farm --strategy llm --force`,
    )
    .action(async (arg: string, flags: DraftFlags) => {
      if (flags.strategy !== "deterministic" && flags.strategy !== "llm") throw new FoundryError("USAGE", "--strategy must be `deterministic` or `llm`", { path: "--strategy" }, flags.strategy);
      const rounds = Number(flags.rounds);
      if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10) throw new FoundryError("USAGE", "--rounds must be a whole number from 1 to 10", { path: "--rounds" }, flags.rounds);
      const dir = domainDir(arg, flags.sources);
      let runtime: LlmRuntime | null = null;
      try {
        let drafter: WorldDrafter = new DeterministicWorldDrafter();
        if (flags.strategy === "llm") {
          const config = resolveConfig({});
          const spec = modelFor(config, "environment-builder");
          if (spec === "deterministic") throw new FoundryError("USAGE", "the llm strategy needs a model for the environment-builder role (set FOUNDRY_MODEL or FOUNDRY_MODEL_ENVIRONMENT_BUILDER)", { path: "--strategy" }, "llm");
          const { createLlmRuntime } = await import("../../llm/llm-runtime.js");
          const { LlmWorldDrafter } = await import("../../agents/environment-builder/llm.js");
          runtime = createLlmRuntime(config);
          runtime.preflight(["environment-builder"]);
          const model = runtime.chatModel({ role: "environment-builder", stage: "draft-world" });
          if (!model) throw new FoundryError("LLM_NOT_CONFIGURED", "the LLM runtime could not provide the environment-builder's model");
          drafter = new LlmWorldDrafter({ model, native: config.structured_output === "native", rounds, modelName: spec });
        }
        // Refuse before any model call when the world exists and --force is not given.
        refuseExistingWorld(dir, flags.force === true);
        const outcome = await drafter.draft(dir);
        const written = writeDraft(dir, flags.sop, outcome, { force: flags.force === true });
        const { review } = outcome;
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ ok: written.world !== null, domain: review.domain, strategy: review.strategy, world: written.world, review: written.review, summary: review.summary, items: review.items, llm: review.llm }, null, 2)}\n`);
        } else {
          for (const it of review.items) process.stdout.write(`${it.where[0] ? `${it.where[0].file}${it.where[0].line !== null ? `:${it.where[0].line}` : ""} ` : ""}[${it.id} ${it.kind}] ${it.subject}: ${it.what}\n`);
          const s = review.summary;
          process.stdout.write(`${written.world ?? `${dir}/world.yaml: not written (the draft did not pass its checks${review.llm ? ` after ${review.llm.rounds} round(s)` : ""})`}: ${s.tables} tables, ${s.columns} columns, ${s.operations} operations, ${s.parameters} parameters, ${s.preconditions} preconditions, ${s.effects} effects, ${s.rules} rules; ${s.review_items} review item(s) in ${written.review}\n`);
          if (review.llm && !review.llm.passed) for (const e of review.llm.last_errors) process.stdout.write(`  last problem: ${e}\n`);
        }
        process.exitCode = written.world !== null ? 0 : 1;
      } finally {
        runtime?.close();
      }
    });
}
