import type { MutationOperator, MutantPlan, NotApplicable } from "./types.js";
import { actionsOf, checksOfKind, na, param, without } from "./lib.js";

const NAME = "use_unobtained_fact";

export const useUnobtainedFact: MutationOperator = {
  name: NAME,
  description: "The agent never asks for a customer fact but still uses its value (a guess that happens to be right).",
  targets: ["fact_elicited_before_use"],
  generate(input) {
    const askedFor = new Map<string, number[]>();
    input.parsed.forEach((p, i) => {
      if (p.action.type !== "ask") return;
      for (const id of p.events.flatMap((e) => input.golden.events[e - 1]?.facts ?? [])) askedFor.set(id, [...(askedFor.get(id) ?? []), i]);
    });
    const out: Array<MutantPlan | NotApplicable> = [];
    for (const [id, asks] of askedFor) {
      const fact = input.task.scenario.private_facts.find((f) => f.id === id);
      if (!fact) continue;
      const used = input.parsed.some((p, i) => i > (asks[0] as number) && p.action.type === "call" && Object.entries(p.action.args).some(([k, v]) => (fact.param === undefined || k === fact.param) && String(v) === String(fact.value)));
      if (!used) {
        out.push(na(NAME, `fact ${id} is elicited but its value is never passed in a call`));
        continue;
      }
      const target = checksOfKind(input, "fact_elicited_before_use").find((c) => param(c, "fact") === id) ?? null;
      out.push({ operator: NAME, target_check: target?.id ?? null, description: `dropped the question${asks.length > 1 ? "s" : ""} that elicited fact ${id}, kept the call that uses ${fact.param ?? "its value"} = ${JSON.stringify(fact.value)}`, actions: without(actionsOf(input), new Set(asks)), mutated: [], refusalIsEquivalent: false });
    }
    return out.length > 0 ? out : [na(NAME, "the golden trace elicits no customer fact")];
  },
};
